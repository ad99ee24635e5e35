import { LitElement, css, html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { describeCapabilities, type RenderMode } from '@plughost/host-sdk/core';
import { riskBadgeContent } from './risk-badge.js';

/**
 * The permissions a plugin asks for, each with its risk colour (normal blue, warning yellow, danger
 * red), the risk's word and shape (colour is never the only signal) and a plain-language description, highest risk first. Inline rendering is listed as a
 * danger-level capability, and an id the permission table does not know is shown as danger. Used
 * by the install dialog and the plugin manager. Ids in `unlisted` (a store package asking for
 * more than its store listing showed) are marked "Not shown in the store listing" in words.
 *
 * @csspart item - One permission row (`data-unlisted` when the store listing did not show it).
 * @csspart unlisted - The "Not shown in the store listing" mark of a row.
 * @csspart badge - The risk badge of a row.
 * @cssprop --plugin-risk-normal - Colour of normal-risk badges (default blue).
 * @cssprop --plugin-risk-warning - Colour of warning-risk badges (default yellow).
 * @cssprop --plugin-risk-danger - Colour of danger-risk badges (default red).
 *
 * @tagname plugin-permission-list
 */
export class PluginPermissionList extends LitElement {
  static override styles = css`
    :host {
      display: block;
      --_normal: var(--plugin-risk-normal, hsl(217 91% 60%));
      --_warning: var(--plugin-risk-warning, hsl(45 93% 47%));
      --_danger: var(--plugin-risk-danger, hsl(0 84% 60%));
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.5rem;
    }
    li {
      display: grid;
      grid-template-columns: auto 1fr;
      gap: 0.25rem 0.75rem;
      align-items: baseline;
      padding: 0.5rem 0.75rem;
      border-left: 4px solid var(--_risk);
      border-radius: 4px;
      background: hsl(var(--card, 0 0% 100%));
      color: hsl(var(--card-foreground, 0 0% 10%));
    }
    li[data-risk='normal'] {
      --_risk: var(--_normal);
    }
    li[data-risk='warning'] {
      --_risk: var(--_warning);
    }
    li[data-risk='danger'] {
      --_risk: var(--_danger);
    }
    /* Dark text on the risk colour keeps a contrast above 4.5:1 for all three colours. */
    .badge {
      grid-row: span 2;
      align-self: start;
      padding: 0.1rem 0.45rem;
      border-radius: 999px;
      font-size: 0.75rem;
      font-weight: 600;
      text-transform: uppercase;
      background: var(--_risk);
      color: hsl(0 0% 7%);
    }
    .id {
      font-family: ui-monospace, monospace;
      font-size: 0.8em;
      opacity: 0.8;
    }
    .description,
    .unlisted {
      grid-column: 2;
      margin: 0;
    }
    .unlisted {
      font-weight: 600;
      color: hsl(var(--destructive, 0 72% 45%));
    }
    .empty {
      margin: 0;
      font-style: italic;
    }
  `;

  /** Permission ids, as declared in the manifest. */
  @property({ type: Array }) accessor permissions: readonly string[] = [];

  /** Permission ids the store listing did not show: marked "Not shown in the store listing". */
  @property({ attribute: false }) accessor unlisted: readonly string[] = [];

  /** The manifest's `render` mode; `inline` adds a danger-level capability. */
  @property({ attribute: 'render-mode' }) accessor renderMode: RenderMode | undefined;

  override render() {
    const rows = describeCapabilities({ permissions: this.permissions, render: this.renderMode }).capabilities;
    if (rows.length === 0) return html`<p class="empty">This plugin asks for no permissions.</p>`;
    return html`<ul aria-label="Requested permissions">
      ${rows.map(
        (row) => html`<li part="item" data-risk=${row.risk} data-permission=${row.id} ?data-unlisted=${this.unlisted.includes(row.id)}>
          <span class="badge" part="badge">${riskBadgeContent(row.risk)}</span>
          <span><strong>${row.title}</strong> <span class="id">${row.id}</span></span>
          ${row.description ? html`<p class="description">${row.description}</p>` : nothing}
          ${this.unlisted.includes(row.id) ? html`<p class="unlisted" part="unlisted">Not shown in the store listing</p>` : nothing}
        </li>`,
      )}
    </ul>`;
  }
}
