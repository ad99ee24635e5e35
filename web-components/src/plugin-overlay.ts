import { LitElement, html } from 'lit';

/** `<plugin-overlay>` (being written). */
export class PluginOverlay extends LitElement {
  override render() {
    return html`<slot></slot>`;
  }
}
