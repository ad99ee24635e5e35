import { LitElement, html } from 'lit';

/** `<plugin-settings-tab>` (being written). */
export class PluginSettingsTab extends LitElement {
  override render() {
    return html`<slot></slot>`;
  }
}
