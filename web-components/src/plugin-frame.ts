import { LitElement, html } from 'lit';

/** `<plugin-frame>` (being written). */
export class PluginFrame extends LitElement {
  override render() {
    return html`<slot></slot>`;
  }
}
