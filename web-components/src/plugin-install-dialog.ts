import { LitElement, html } from 'lit';

/** `<plugin-install-dialog>` (being written). */
export class PluginInstallDialog extends LitElement {
  override render() {
    return html`<slot></slot>`;
  }
}
