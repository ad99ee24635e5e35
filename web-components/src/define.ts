/** Registers every element of this package under its tag name (idempotent). */
import { PluginPermissionList } from './plugin-permission-list.js';

const TAGS = {
  'plugin-permission-list': PluginPermissionList,
} as const;

for (const [tag, element] of Object.entries(TAGS)) {
  if (!customElements.get(tag)) customElements.define(tag, element);
}

declare global {
  interface HTMLElementTagNameMap {
    'plugin-permission-list': PluginPermissionList;
  }
}
