import type { BridgeCallContext } from '../bridge-method.js';
import type { BridgeHandler } from '../lazy-handlers.js';
import { badArgument, idSegment, optionalNumber, optionalObjectArgument, stringArgument } from './arguments.js';
import { withConsent } from './with-consent.js';

type FileAction = 'read' | 'write' | 'delete';

/** Base64 of bytes without building one giant string argument list. */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return btoa(binary);
}

/** Calls a file route as the plugin, with the consent prompt on `FS_AUTHORIZATION_REQUIRED`. */
function fileCall(context: BridgeCallContext, action: FileAction, body: Record<string, unknown>): Promise<unknown> {
  const { plugin, services } = context;
  const path = `/api/plugins/files/${idSegment(plugin.id)}/${action}`;
  return withConsent(context, action === 'read' ? 'read' : 'write', () => services.backend.json(path, { json: body, pluginId: plugin.id }));
}

function rangeOf(method: string, args: readonly unknown[]): { start?: number; length?: number } {
  const options = optionalObjectArgument(method, args, 1, 'options');
  const start = optionalNumber(method, options.start, 'start');
  const length = optionalNumber(method, options.length, 'length');
  return { ...(start !== undefined ? { start } : {}), ...(length !== undefined ? { length } : {}) };
}

/** The file methods (`filesystem:read`, `filesystem:write`), with the consent prompt. */
export const handlers = {
  readText: (context, args) => fileCall(context, 'read', { path: stringArgument('readText', args, 0, 'path'), encoding: 'text', ...rangeOf('readText', args) }),
  readBytes: (context, args) =>
    fileCall(context, 'read', { path: stringArgument('readBytes', args, 0, 'path'), encoding: 'base64', ...rangeOf('readBytes', args) }),
  writeText: (context, args) => {
    const content = args[1];
    if (typeof content !== 'string') throw badArgument('writeText', '"content" must be a string');
    return fileCall(context, 'write', { path: stringArgument('writeText', args, 0, 'path'), content });
  },
  writeBytes: (context, args) => {
    const bytes = args[1];
    const data =
      bytes instanceof Uint8Array
        ? bytes
        : Array.isArray(bytes) && bytes.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)
          ? Uint8Array.from(bytes as number[])
          : undefined;
    if (!data) throw badArgument('writeBytes', '"bytes" must be a Uint8Array');
    return fileCall(context, 'write', { path: stringArgument('writeBytes', args, 0, 'path'), contentBase64: toBase64(data) });
  },
  deleteFile: (context, args) => fileCall(context, 'delete', { path: stringArgument('deleteFile', args, 0, 'path') }),
} satisfies Readonly<Record<string, BridgeHandler>>;
