/** Registers every element of this package under its tag name (idempotent). */
import { PluginPermissionList } from './plugin-permission-list.js';
import { PluginFrame } from './plugin-frame.js';
import { PluginOverlay } from './plugin-overlay.js';
import { PluginInstallDialog } from './plugin-install-dialog.js';
import { PluginManager } from './plugin-manager.js';
import { PluginDownloadCenter } from './plugin-download-center.js';
import { PluginSettingsTab } from './plugin-settings-tab.js';
import { PluginSidebar } from './plugin-sidebar.js';
import { PluginToasts } from './plugin-toasts.js';
import { PluginConsentDialog } from './plugin-consent-dialog.js';
import { PluginStore } from './plugin-store.js';
import { LauncherSettingsPage } from './launcher-settings/launcher-settings-page.js';

const TAGS = {
  'plugin-permission-list': PluginPermissionList,
  'plugin-frame': PluginFrame,
  'plugin-overlay': PluginOverlay,
  'plugin-install-dialog': PluginInstallDialog,
  'plugin-manager': PluginManager,
  'plugin-download-center': PluginDownloadCenter,
  'plugin-settings-tab': PluginSettingsTab,
  'plugin-sidebar': PluginSidebar,
  'plugin-toasts': PluginToasts,
  'plugin-consent-dialog': PluginConsentDialog,
  'plugin-store': PluginStore,
  'launcher-settings-page': LauncherSettingsPage,
} as const;

for (const [tag, element] of Object.entries(TAGS)) {
  if (!customElements.get(tag)) customElements.define(tag, element);
}

declare global {
  interface HTMLElementTagNameMap {
    'plugin-permission-list': PluginPermissionList;
    'plugin-frame': PluginFrame;
    'plugin-overlay': PluginOverlay;
    'plugin-install-dialog': PluginInstallDialog;
    'plugin-manager': PluginManager;
    'plugin-download-center': PluginDownloadCenter;
    'plugin-settings-tab': PluginSettingsTab;
    'plugin-sidebar': PluginSidebar;
    'plugin-toasts': PluginToasts;
    'plugin-consent-dialog': PluginConsentDialog;
    'plugin-store': PluginStore;
    'launcher-settings-page': LauncherSettingsPage;
  }
}
