/**
 * The debug harness page's bundle (inlined into the pluginctl file at build time): registers the
 * launcher elements the page uses and `<harness-app>`, and hands the app the settings the server
 * embedded. Only these elements are registered (not `@plughost/web-components/define`, which
 * brings the store, the plugin manager and the download centre too): the bundle stays a third of
 * the size inside the pluginctl file.
 */
import { PluginConsentDialog, PluginFrame, PluginOverlay, PluginSettingsTab, PluginSidebar, PluginToasts } from '@plughost/web-components';
import { HarnessApp } from './harness-app.js';
import { readPageConfig } from './page-config.js';

const ELEMENTS: Readonly<Record<string, CustomElementConstructor>> = {
  'plugin-frame': PluginFrame,
  'plugin-overlay': PluginOverlay,
  'plugin-settings-tab': PluginSettingsTab,
  'plugin-sidebar': PluginSidebar,
  'plugin-toasts': PluginToasts,
  'plugin-consent-dialog': PluginConsentDialog,
  'harness-app': HarnessApp,
};
for (const [tag, element] of Object.entries(ELEMENTS)) if (!customElements.get(tag)) customElements.define(tag, element);

const app = document.createElement('harness-app') as HarnessApp;
app.config = readPageConfig(document);
document.body.append(app);

declare global {
  interface HTMLElementTagNameMap {
    'harness-app': HarnessApp;
  }
}
