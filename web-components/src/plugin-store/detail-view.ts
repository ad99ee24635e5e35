/** The detail panel's content: the plugin's head, description, install button, permissions and versions. */
import { html, nothing, type TemplateResult } from 'lit';
import { newestVersionsFirst } from '@plughost/host-sdk/core';
import { formatBytes, formatDate } from './format.js';
import { renderActionButton, renderDownloads, renderError, renderIcon, renderRating, renderTags, type IconState } from './plugin-parts.js';
import type { StorePlugin, StorePluginDetail, StoreVersion } from './registry-client.js';
import type { Action, DetailState } from './store-model.js';

/** What the detail view shows and what its buttons do. */
export interface DetailView extends IconState {
  readonly state: DetailState;
  readonly busySlugs: readonly string[];
  /** No store source is usable: the install and update button is disabled. */
  readonly storeDisabled: boolean;
  /** True while the plugin's update asks for consent or installs. */
  updating(plugin: StorePlugin): boolean;
  /** The message of the plugin's failed update, if any. */
  updateProblem(plugin: StorePlugin): string | undefined;
  actionOf(plugin: StorePlugin): Action;
  install(plugin: StorePlugin, action: Action): void;
  close(): void;
  retry(): void;
}

/** The content of the detail `<dialog>`: the card's data while loading, then the full detail. */
export function renderDetail(view: DetailView): TemplateResult {
  const { state } = view;
  const plugin: StorePlugin | undefined = state.detail ?? state.summary;
  const busy = plugin ? view.busySlugs.includes(plugin.slug) || view.updating(plugin) : false;
  const action = plugin ? view.actionOf(plugin) : undefined;
  return html`<div class="detail-head">
      ${plugin ? renderIcon(plugin, view) : html`<span></span>`}
      <div>
        <h2 id="detail-title" part="detail-title">${plugin?.name ?? state.slug}</h2>
        ${
          plugin
            ? html`<p class="sub">
              <span class="mono">${plugin.id}</span>${plugin.latestVersion ? html` · version ${plugin.latestVersion}` : nothing}${
                plugin.category ? html` · ${plugin.category}` : nothing
              }
            </p>`
            : nothing
        }
      </div>
      <button type="button" part="close-button" autofocus @click=${view.close}>Close</button>
    </div>
    ${
      plugin && action
        ? html`${plugin.description ? html`<p class="detail-description">${plugin.description}</p>` : nothing}
          <div class="meta detail-meta">${renderDownloads(plugin)} ${renderRating(plugin)} ${plugin.tags.length > 0 ? renderTags(plugin.tags) : nothing}</div>
          <div class="detail-actions">
            ${renderActionButton({
              action,
              busy,
              storeDisabled: view.storeDisabled,
              part: 'detail-action-button',
              describedBy: 'detail-title',
              install: () => view.install(plugin, action),
              problem: view.updateProblem(plugin),
            })}
          </div>`
        : nothing
    }
    ${state.status === 'loading' ? html`<p class="loading" role="status">Loading details…</p>` : nothing}
    ${state.status === 'error' && state.failure ? renderError(state.failure, view.retry) : nothing}
    ${state.status === 'ready' && state.detail ? renderVersions(state.detail) : nothing}`;
}

/** The latest version's permissions, then every version, newest first. */
function renderVersions(detail: StorePluginDetail): TemplateResult {
  const versions = newestVersionsFirst(detail.versions);
  const latest = versions.find((entry) => entry.version === detail.latestVersion) ?? versions[0];
  return html`${
    latest
      ? html`<h3 class="section">Permissions</h3>
          <p class="sub">What version ${latest.version} may do once installed:</p>
          <plugin-permission-list part="permissions" .permissions=${latest.permissions}></plugin-permission-list>`
      : nothing
  }
    <h3 class="section">Versions</h3>
    ${
      versions.length === 0
        ? html`<p class="sub">No published versions.</p>`
        : html`<ol class="versions" part="versions" aria-label="Versions, newest first">
          ${versions.map((entry) => renderVersion(entry, entry === latest))}
        </ol>`
    }`;
}

function renderVersion(entry: StoreVersion, isLatest: boolean): TemplateResult {
  return html`<li part="version-entry" data-version=${entry.version}>
    <div class="version-line">
      <strong>${entry.version}</strong>
      ${isLatest ? html`<span>Latest</span>` : nothing}
      ${entry.publishedAt ? html`<time datetime=${entry.publishedAt}>${formatDate(entry.publishedAt)}</time>` : nothing}
      ${entry.sizeBytes > 0 ? html`<span>${formatBytes(entry.sizeBytes)}</span>` : nothing}
      ${entry.minLauncherVersion ? html`<span>Needs launcher ${entry.minLauncherVersion} or later</span>` : nothing}
    </div>
    ${entry.changelog.trim() !== '' ? html`<p class="changelog" part="changelog">${entry.changelog}</p>` : html`<p class="no-changelog">No changelog.</p>`}
  </li>`;
}
