import { LitElement, html } from 'lit';

/** `<plugin-consent-dialog>` (being written). */
export class PluginConsentDialog extends LitElement {
  override render() {
    return html`<slot></slot>`;
  }
}
