import { PluginHostError } from '@plughost/host-sdk/core';
import { normalizeSourceType } from './online-source.js';

/** Where a pack comes from. */
export type ModpackSource =
  | { readonly kind: 'local'; readonly path: string }
  | { readonly kind: 'online'; readonly type: 'modrinth' | 'curseforge' | 'ftb'; readonly projectId: string; readonly fileId: string };

/** A validated `modpack.install` body (paths not yet resolved). */
export interface ModpackInstallRequest {
  /** The instance name. */
  readonly name: string;
  readonly gameDir: string;
  readonly source: ModpackSource;
  /** MiB; default 4096. */
  readonly maxMemory: number;
  readonly versionIsolation: boolean;
}

/** The specification's default memory of a modpack instance, in MiB. */
export const DEFAULT_MODPACK_MEMORY = 4096;

const FIELDS = new Set(['id', 'gameDir', 'path', 'type', 'projectId', 'fileId', 'maxMemory', 'versionIsolation']);
const PACK_EXTENSION = /\.(mrpack|zip)$/i;

function presentString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Validates a `POST /api/modpack/install-direct` body with the `MODPACK_*` codes: a missing
 * name, a missing game directory, no source, and a malformed source (unknown `type`, missing or
 * non-string ids, both a local and an online source, a local file that is not `.mrpack` or
 * `.zip`). Whether the local file exists is checked later, after consent.
 *
 * @throws PluginHostError `MODPACK_*` or `INVALID_ARGUMENT` (unknown field, bad `maxMemory`).
 */
export function parseModpackInstallRequest(body: Record<string, unknown>): ModpackInstallRequest {
  for (const field of Object.keys(body)) {
    if (!FIELDS.has(field)) throw new PluginHostError('INVALID_ARGUMENT', `Unknown field "${field}"`, { field });
  }
  const name = body.id;
  if (!presentString(name)) throw new PluginHostError('MODPACK_NAME_REQUIRED', 'The instance name ("id") is required', { field: 'id' });
  if (name.length > 100) throw new PluginHostError('INVALID_ARGUMENT', 'The instance name ("id") may have at most 100 characters', { field: 'id' });
  const gameDir = body.gameDir;
  if (!presentString(gameDir)) throw new PluginHostError('MODPACK_GAME_DIR_REQUIRED', 'The instance directory ("gameDir") is required', { field: 'gameDir' });

  const path = body.path;
  const type = body.type;
  let source: ModpackSource;
  if (path !== undefined && type !== undefined) {
    throw new PluginHostError('MODPACK_SOURCE_INVALID', 'Give either a local "path" or an online "type", not both', { field: 'path' });
  } else if (path !== undefined) {
    if (!presentString(path)) throw new PluginHostError('MODPACK_SOURCE_INVALID', '"path" must be a non-empty string', { field: 'path' });
    if (!PACK_EXTENSION.test(path))
      throw new PluginHostError('MODPACK_SOURCE_INVALID', 'A local modpack must be a .mrpack (Modrinth) or .zip (CurseForge or Modrinth) file', {
        field: 'path',
      });
    source = { kind: 'local', path };
  } else if (type !== undefined) {
    const normalized = normalizeSourceType(type);
    if (normalized === undefined)
      throw new PluginHostError('MODPACK_SOURCE_INVALID', '"type" must be one of mr, modrinth, cf, curseforge, ftb', { field: 'type' });
    const projectId = body.projectId;
    const fileId = body.fileId;
    if (typeof projectId !== 'string' || projectId === '')
      throw new PluginHostError('MODPACK_SOURCE_INVALID', '"projectId" must be a non-empty string for an online modpack', { field: 'projectId' });
    if (typeof fileId !== 'string' || fileId === '')
      throw new PluginHostError('MODPACK_SOURCE_INVALID', '"fileId" must be a non-empty string for an online modpack', { field: 'fileId' });
    source = { kind: 'online', type: normalized, projectId, fileId };
  } else {
    throw new PluginHostError('MODPACK_SOURCE_REQUIRED', 'Give a local "path", or an online "type" with "projectId" and "fileId"', { field: 'path' });
  }

  const maxMemory = body.maxMemory ?? DEFAULT_MODPACK_MEMORY;
  if (typeof maxMemory !== 'number' || !Number.isInteger(maxMemory) || maxMemory < 512 || maxMemory > 1_048_576) {
    throw new PluginHostError('INVALID_ARGUMENT', '"maxMemory" must be a whole number of MiB between 512 and 1048576', { field: 'maxMemory' });
  }
  const versionIsolation = body.versionIsolation ?? false;
  if (typeof versionIsolation !== 'boolean')
    throw new PluginHostError('INVALID_ARGUMENT', '"versionIsolation" must be a boolean', { field: 'versionIsolation' });
  return { name: name.trim(), gameDir, source, maxMemory, versionIsolation };
}
