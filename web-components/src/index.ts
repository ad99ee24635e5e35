/**
 * Lit elements that make the plugin host a drop-in for launcher UIs. Importing this module defines
 * no tags; import `@plughost/web-components/define` for that.
 *
 * @packageDocumentation
 */
export { PluginPermissionList } from './plugin-permission-list.js';
