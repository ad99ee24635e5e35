import { LitElement, html } from 'lit';

/** `<plugin-sidebar>` (being written). */
export class PluginSidebar extends LitElement {
  override render() {
    return html`<slot></slot>`;
  }
}
