import { LitElement, html } from 'lit';

/** `<plugin-download-center>` (being written). */
export class PluginDownloadCenter extends LitElement {
  override render() {
    return html`<slot></slot>`;
  }
}
