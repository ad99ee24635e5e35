/** Pieces of a plugin shown on its card and in its detail panel alike. */
import { html, nothing, type TemplateResult } from 'lit';
import { initialOf, type CardIcon } from '../plugin-manager/card-icon.js';
import { formatCount, ratingLabel, ratingStars, storeIcon } from './format.js';
import type { StorePlugin } from './registry-client.js';
import type { Action, Failure } from './store-model.js';

/** Icons that failed to load, and how to record one. */
export interface IconState {
  readonly brokenIcons: ReadonlySet<string>;
  iconFailed(src: string): void;
}

/** The icon box: `iconUrl` when it is `https:` or on the page's origin and loads, else the initial. */
export function renderIcon(plugin: StorePlugin, icons: IconState): TemplateResult {
  const icon: CardIcon = storeIcon(plugin.iconUrl, plugin.name, location.origin);
  const broken = icon.kind === 'image' && icons.brokenIcons.has(icon.src);
  const content =
    icon.kind === 'image' && !broken
      ? html`<img src=${icon.src} alt="" decoding="async" referrerpolicy="no-referrer" @error=${() => icons.iconFailed(icon.src)} />`
      : html`<span class="initial">${initialOf(plugin.name)}</span>`;
  return html`<span class="icon" part="icon" aria-hidden="true" data-kind=${icon.kind === 'image' && !broken ? 'image' : 'initial'}
    >${content}</span
  >`;
}

/** Stars and average, or "No ratings"; the accessible name says the average and count. */
export function renderRating(plugin: StorePlugin): TemplateResult {
  const label = ratingLabel(plugin.ratingAverage, plugin.ratingCount);
  if (plugin.ratingAverage === undefined || plugin.ratingCount === 0) {
    return html`<span part="rating" role="img" aria-label=${label}>No ratings</span>`;
  }
  return html`<span part="rating" role="img" aria-label=${label}
    ><span class="stars">${ratingStars(plugin.ratingAverage)}</span> ${Number(plugin.ratingAverage.toFixed(1))}
    (${plugin.ratingCount.toLocaleString()})</span
  >`;
}

/** The downloads count (`1.2k downloads`), the exact figure in its title. */
export function renderDownloads(plugin: StorePlugin): TemplateResult {
  const exact = plugin.downloadsCount.toLocaleString();
  const noun = plugin.downloadsCount === 1 ? 'download' : 'downloads';
  return html`<span part="downloads" title="${exact} ${noun}">${formatCount(plugin.downloadsCount)} ${noun}</span>`;
}

/** The tag list. */
export function renderTags(tags: readonly string[]): TemplateResult {
  return html`<ul class="tags" part="tags" aria-label="Tags">
    ${tags.map((tag) => html`<li part="tag">${tag}</li>`)}
  </ul>`;
}

/** Options of {@link renderActionButton}. */
export interface ActionButtonOptions {
  readonly action: Action;
  /** The launcher is installing this plugin now, or its update runs. */
  readonly busy: boolean;
  /** No store source is usable: installs and updates are off. */
  readonly storeDisabled?: boolean;
  /** Why the last install or update of this plugin failed (a sentence with the backend's message), shown under the button. */
  readonly problem?: string | undefined;
  /** `action-button` on cards, `detail-action-button` in the detail. */
  readonly part: string;
  /** The id of the element naming the plugin. */
  readonly describedBy: string;
  install(): void;
}

/** "Install", "Update to x.y.z", "Installed", "Restart to apply" or "Unavailable"; "Installing…" or "Updating…" while busy. */
export function renderActionButton({ action, busy, storeDisabled = false, part, describedBy, install, problem }: ActionButtonOptions): TemplateResult {
  let label: string;
  switch (action.kind) {
    case 'install':
      label = busy ? 'Installing…' : 'Install';
      break;
    case 'update':
      label = busy ? 'Updating…' : `Update to ${action.version}`;
      break;
    case 'installed':
      label = busy ? 'Installing…' : 'Installed';
      break;
    case 'pending':
      label = 'Restart to apply';
      break;
    default:
      label = 'Unavailable';
  }
  const usable = action.kind === 'install' || action.kind === 'update';
  return html`<button type="button" part=${part} data-action=${action.kind} aria-describedby=${describedBy} ?disabled=${busy || !usable || storeDisabled} @click=${install}>
      ${label}
    </button>
    ${problem ? html`<p class="update-problem" part="update-error" role="alert">${problem}</p>` : nothing}`;
}

/** The error box of the list or the detail, with "Retry". */
export function renderError(failure: Failure, retry: () => void): TemplateResult {
  return html`<div class="error" part="error" role="alert">
    <p><strong>${failure.title}</strong></p>
    <p class="problem">${failure.message}</p>
    <button type="button" part="retry-button" @click=${retry}>Retry</button>
  </div>`;
}
