import { LitElement, html } from 'lit';

/** `<plugin-manager>` (being written). */
export class PluginManager extends LitElement {
  override render() {
    return html`<slot></slot>`;
  }
}
