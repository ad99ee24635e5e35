/**
 * Health, system information, opening URLs, telemetry, the launcher's settings and store sources,
 * and the OpenAPI description: fixed or in-memory answers in the backend's shapes.
 */
import { buildOpenApiDocument, parseOpenableUrl, parsePluginErrorReport, parseSettingsPatch } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import { FAKE_SYSTEM_INFO, fakeRegistryStatus } from './fake-data.js';
import { readJsonObject, sendErrorAnswer, sendJson } from './http-io.js';
import { isMockErrorAnswer } from './mock-overrides.js';
import type { StubContext } from './stub-context.js';
import { type StubHandler, type StubRoute, route } from './stub-router.js';

/** The launcher's own routes refuse bridge calls (`X-Plugin-Id`) as an unknown route, like the backend. */
function launcherPageOnly(handler: StubHandler): StubHandler {
  return (request) => {
    if (request.incoming.headers['x-plugin-id'] !== undefined) throw new PluginHostError('NOT_FOUND', `No route ${request.method} ${request.rawPath}`);
    return handler(request);
  };
}

export function systemRoutes(context: StubContext): StubRoute[] {
  const systemInfo: StubHandler = ({ response }) => {
    const mock = context.mock.systemInfo;
    if (isMockErrorAnswer(mock)) sendErrorAnswer(response, mock);
    else sendJson(response, 200, { ...FAKE_SYSTEM_INFO, ...mock });
  };
  const registries: StubHandler = ({ response }) => sendJson(response, 200, fakeRegistryStatus(context.launcherSettings));
  return [
    route('GET', '/api/health', ({ response }) => sendJson(response, 200, { status: 'ok' })),
    route('GET', '/api/ping', ({ response }) => sendJson(response, 200, { pong: true })),
    route('GET', '/api/systeminfo', systemInfo),
    route('GET', '/api/system/info', systemInfo),
    route('POST', '/api/system/open-url', async ({ incoming, response }) => {
      const url = parseOpenableUrl((await readJsonObject(incoming)).url);
      // The harness opens nothing: the log shows what a launcher would have opened.
      context.log(`open-url (not opened by the harness): ${url}`);
      sendJson(response, 200, { opened: true });
    }),
    route('POST', '/api/telemetry/plugin-error', async ({ incoming, response }) => {
      const report = parsePluginErrorReport(await readJsonObject(incoming));
      context.log(`telemetry (not sent by the harness): ${report.pluginId}@${report.pluginVersion} ${report.errorType}`);
      sendJson(response, 202, { accepted: true });
    }),
    route(
      'GET',
      '/api/launcher/settings',
      launcherPageOnly(({ response }) => sendJson(response, 200, context.launcherSettings)),
    ),
    route(
      'PATCH',
      '/api/launcher/settings',
      launcherPageOnly(async ({ incoming, response }) => {
        context.launcherSettings = { ...context.launcherSettings, ...parseSettingsPatch(await readJsonObject(incoming)) };
        sendJson(response, 200, context.launcherSettings);
      }),
    ),
    route('GET', '/api/registries', launcherPageOnly(registries)),
    route('POST', '/api/registries/retry', launcherPageOnly(registries)),
    route('GET', '/openapi/v1.json', ({ response }) => sendJson(response, 200, buildOpenApiDocument())),
  ];
}
