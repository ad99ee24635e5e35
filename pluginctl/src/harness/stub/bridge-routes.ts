/**
 * The routes behind the bridge's powerful methods: the CORS proxy, shell commands, the file bridge
 * and WASM. None of them touches the network, a process or the disk: each answers what a launcher
 * would, from fixed data or the mock file.
 */
import { parseReadRequest, parseShellRequest, parseWriteRequest, refuseUnknownFields } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import { readJsonObject, sendErrorAnswer, sendJson } from './http-io.js';
import { isMockErrorAnswer } from './mock-overrides.js';
import { answerProxy } from './proxy.js';
import { type StubContext, requirePlugin } from './stub-context.js';
import { type StubRoute, route } from './stub-router.js';
import { requestedPath } from './requested-path.js';

const INVOKE_FIELDS = ['exportName', 'args'];

export function bridgeRoutes(context: StubContext): StubRoute[] {
  const { files, mock } = context;
  return [
    route('POST', '/api/plugins/proxy', (request) => answerProxy(request, mock.proxyResponse)),

    route('POST', '/api/plugins/shell/:id', async ({ incoming, params, response }) => {
      const request = parseShellRequest(await readJsonObject(incoming));
      await requirePlugin(context, params.id ?? '');
      if (isMockErrorAnswer(mock.execCommand)) {
        sendErrorAnswer(response, mock.execCommand);
        return;
      }
      // The harness runs nothing: the answer says what would have run.
      sendJson(response, 200, { exitCode: 0, stdout: `stub: ${request.command}\n`, stderr: '', ...mock.execCommand });
    }),

    route('POST', '/api/plugins/files/:id/read', async ({ incoming, params, response }) => {
      const body = await readJsonObject(incoming);
      await requirePlugin(context, params.id ?? '');
      const request = parseReadRequest(body);
      const answer = files.read(requestedPath(request.path), request);
      if (isMockErrorAnswer(answer)) sendErrorAnswer(response, answer);
      else sendJson(response, 200, answer);
    }),
    route('POST', '/api/plugins/files/:id/write', async ({ incoming, params, response }) => {
      const body = await readJsonObject(incoming);
      await requirePlugin(context, params.id ?? '');
      const request = parseWriteRequest(body);
      sendJson(response, 200, files.write(requestedPath(request.path), request.data));
    }),
    route('POST', '/api/plugins/files/:id/delete', async ({ incoming, params, response }) => {
      const body = await readJsonObject(incoming);
      await requirePlugin(context, params.id ?? '');
      refuseUnknownFields(body, ['path']);
      sendJson(response, 200, files.delete(requestedPath(body.path)));
    }),
    route('POST', '/api/plugins/files/:id/authorize', async ({ incoming, params, response }) => {
      // Consent comes from the user through the launcher page, never from a plugin granting itself access.
      if (incoming.headers['x-plugin-id'] !== undefined) {
        throw new PluginHostError('INVALID_ARGUMENT', 'Only the launcher can authorize paths; a plugin cannot grant itself access');
      }
      const body = await readJsonObject(incoming);
      await requirePlugin(context, params.id ?? '');
      refuseUnknownFields(body, ['path']);
      sendJson(response, 200, { path: requestedPath(body.path), authorized: true });
    }),

    route('GET', '/api/plugins/wasm', ({ response }) => sendJson(response, 200, mock.wasmList ?? [])),
    route('POST', '/api/plugins/wasm/:id/invoke', async ({ incoming, params }) => {
      const body = await readJsonObject(incoming, { optional: true });
      refuseUnknownFields(body, INVOKE_FIELDS);
      await requirePlugin(context, params.id ?? '');
      throw new PluginHostError(
        'HARNESS_READONLY',
        `The debug harness runs no WASM modules, so ${params.id} cannot be invoked here; call its exports in a launcher (pluginctl dev in the plugin's project loads it into one).`,
      );
    }),
  ];
}
