/** The store's source line ("Source: host (backup) · n plugins") and its disabled state when no source is usable. */
import { html, nothing, type TemplateResult } from 'lit';
import type { ShownSource, SourceProblem } from './store-sources.js';

/** What the source views show and what their button does. */
export interface SourceView {
  /** Why each enabled source cannot be used (the disabled state). */
  readonly problems: readonly SourceProblem[];
  /** The disabled state's message when no source is listed (none enabled, or the backend's words). */
  readonly message: string;
  /** True while Retry runs. */
  readonly retrying: boolean;
  retry(): void;
}

/** The source the catalog comes from: its host, "backup" when it is not the primary, and its plugin count. */
export function renderSourceLine(shown: ShownSource | null): TemplateResult | typeof nothing {
  if (!shown) return nothing;
  const count = shown.pluginCount;
  return html`<p class="source" part="source-status" role="status" data-source=${shown.primary ? 'primary' : 'backup'} title=${shown.url}>
    Source: <span class="mono" part="source-host">${shown.host}</span>${shown.primary ? nothing : html` <span class="badge" part="source-backup">backup</span>`}${
      count === null ? nothing : html` · ${count.toLocaleString()} ${count === 1 ? 'plugin' : 'plugins'}`
    }
  </p>`;
}

/** "Store unavailable:" with the reason of each enabled source, and Retry (in place of the catalog). */
export function renderUnavailable(view: SourceView): TemplateResult {
  return html`<div class="error unavailable" part="store-unavailable" role="alert">
    <p><strong>Store unavailable:</strong> ${view.problems.length === 0 ? view.message : nothing}</p>
    ${
      view.problems.length > 0
        ? html`<ul class="problems" part="source-problems">
          ${view.problems.map(
            (problem) => html`<li part="source-problem" data-url=${problem.url}><span class="mono">${problem.host}</span>: ${problem.reason}</li>`,
          )}
        </ul>`
        : nothing
    }
    <p class="problem">Installs and updates are off until a store source answers. Check the network and the sources in Settings, then retry.</p>
    <button type="button" part="retry-sources-button" ?disabled=${view.retrying} @click=${view.retry}>${view.retrying ? 'Retrying…' : 'Retry'}</button>
  </div>`;
}
