import { LitElement, html } from 'lit';

/** `<plugin-toasts>` (being written). */
export class PluginToasts extends LitElement {
  override render() {
    return html`<slot></slot>`;
  }
}
