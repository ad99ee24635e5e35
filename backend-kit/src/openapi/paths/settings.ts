import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

/** `routes/settings.ts`: per-plugin settings, for the launcher (plugins reach them through the bridge). */
export const settingsRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/plugins/settings/{id}',
    operationId: 'getPluginSettings',
    tag: 'settings',
    summary: "Read a plugin's settings",
    responses: { 200: jsonResponse('The settings object; `{}` when nothing was saved.', 'Settings') },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/api/plugins/settings/{id}',
    operationId: 'setPluginSetting',
    tag: 'settings',
    summary: 'Merge one key into the settings',
    description: 'Replaces the value of `key` and keeps every other key; writes are serialized per plugin and atomic.',
    body: { json: schemaRef('SettingsWrite') },
    responses: { 200: jsonResponse('The whole settings object after the merge.', 'Settings') },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND'],
  },
];
