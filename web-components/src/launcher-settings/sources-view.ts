/** The plugin sources of the Settings page: the list with its controls and live status, and the add row. */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { RegistrySourceStatus } from '@plughost/host-sdk/core';
import { fieldProblem } from './field-problem.js';
import { sourceKey, type SettingsDraft } from './settings-model.js';

/** What the sources view shows and what its controls do. */
export interface SourcesView {
  readonly sources: SettingsDraft['sources'];
  /** `GET /api/registries`, or null before it answered. */
  readonly statuses: readonly RegistrySourceStatus[] | null;
  /** Why the status could not be read, or null. */
  readonly statusError: string | null;
  readonly addText: string;
  readonly addError: string | null;
  /** The list's validation message (no primary), or undefined. */
  readonly error: string | undefined;
  readonly disabled: boolean;
  move(index: number, by: -1 | 1): void;
  remove(index: number): void;
  setEnabled(index: number, enabled: boolean): void;
  setPrimary(index: number): void;
  addInput(text: string): void;
  add(): void;
  /** "Retry sources": forget timeouts and ask every source again. */
  retry(): void;
  /** True while the retry runs. */
  readonly retrying: boolean;
}

type SourceState = 'active' | 'usable' | 'unusable' | 'disabled' | 'unknown';

function stateOf(enabled: boolean, status: RegistrySourceStatus | undefined): SourceState {
  if (!enabled) return 'disabled';
  if (!status) return 'unknown';
  if (status.active) return 'active';
  return status.usable ? 'usable' : 'unusable';
}

/** The status line of one source: what the backend found when it last asked it. */
function renderStatus(state: SourceState, status: RegistrySourceStatus | undefined, statusesRead: boolean): TemplateResult {
  let summary: string;
  switch (state) {
    case 'disabled':
      summary = 'Disabled: not used.';
      break;
    case 'unknown':
      summary = statusesRead ? 'Not checked yet: save to check this source.' : 'Checking…';
      break;
    case 'active':
      summary = 'In use: the store reads from this source.';
      break;
    case 'usable':
      summary = 'Usable: standing by.';
      break;
    default:
      summary = 'Not usable.';
  }
  const facts: string[] = [];
  if (status?.apiVersion) facts.push(`API ${status.apiVersion}`);
  if (status?.pluginCount !== null && status?.pluginCount !== undefined) facts.push(`${status.pluginCount} ${status.pluginCount === 1 ? 'plugin' : 'plugins'}`);
  return html`<p class="source-status" part="source-status" data-state=${state}>
    <span>${summary}</span>${facts.length > 0 ? html` <span part="source-facts">${facts.join(' · ')}</span>` : nothing}
    ${status?.lastError ? html`<span class="last-error" part="source-error">Last error: ${status.lastError}</span>` : nothing}
  </p>`;
}

/** The list of sources, the add row, and the list's messages. */
export function renderSources(view: SourcesView): TemplateResult {
  const byUrl = new Map((view.statuses ?? []).map((status) => [sourceKey(status.url), status]));
  const last = view.sources.length - 1;
  const listProblem = fieldProblem('sources-error', view.error);
  const addProblem = fieldProblem('add-source-error', view.addError);
  return html`<p class="hint">
      The store reads from the first enabled source that works, in this order; if it stops answering, the next one takes over.
      Publishing and sign-in always go to the primary source.
    </p>
    ${
      view.sources.length === 0
        ? html`<p class="hint" part="no-sources">No source: the store is off until you add one.</p>`
        : html`<ol class="sources" part="sources" aria-describedby=${listProblem.describedBy}>
          ${repeat(
            view.sources,
            (source) => sourceKey(source.url),
            (source, index) => {
              const status = byUrl.get(sourceKey(source.url));
              const state = stateOf(source.enabled, status);
              const label = `source ${index + 1}`;
              return html`<li class="source" part="source" data-url=${source.url} data-state=${state}>
                <div class="source-head">
                  <span class="url" part="source-url">${source.url}</span>
                  ${source.primary ? html`<span class="badge" part="primary-badge">Primary</span>` : nothing}
                  ${state === 'active' ? html`<span class="badge active" part="active-badge">Active</span>` : nothing}
                </div>
                ${renderStatus(state, status, view.statuses !== null)}
                <div class="source-controls">
                  <label
                    ><input
                      type="checkbox"
                      part="source-enabled"
                      .checked=${source.enabled}
                      ?disabled=${view.disabled}
                      @change=${(event: Event) => view.setEnabled(index, (event.target as HTMLInputElement).checked)}
                    />
                    Enabled</label
                  >
                  <label
                    ><input
                      type="radio"
                      name="primary"
                      part="source-primary"
                      .checked=${source.primary}
                      ?disabled=${view.disabled}
                      @change=${() => view.setPrimary(index)}
                    />
                    Primary</label
                  >
                  <span class="end">
                    <button type="button" part="move-up-button" aria-label="Move ${label} up" ?disabled=${view.disabled || index === 0} @click=${() => view.move(index, -1)}>
                      Up
                    </button>
                    <button
                      type="button"
                      part="move-down-button"
                      aria-label="Move ${label} down"
                      ?disabled=${view.disabled || index === last}
                      @click=${() => view.move(index, 1)}
                    >
                      Down
                    </button>
                    <button type="button" part="remove-button" aria-label="Remove ${label}" ?disabled=${view.disabled} @click=${() => view.remove(index)}>
                      Remove
                    </button>
                  </span>
                </div>
              </li>`;
            },
          )}
        </ol>`
    }
    ${listProblem.message}
    ${view.statusError ? html`<p class="problem" part="status-error" role="alert">The sources’ status could not be read: ${view.statusError}</p>` : nothing}
    <div class="add">
      <label for="add-source">Add a source</label>
      <input
        id="add-source"
        type="url"
        part="add-source-input"
        placeholder="https://store.example/api/v1"
        autocomplete="off"
        spellcheck="false"
        aria-invalid=${addProblem.invalid}
        aria-describedby=${addProblem.describedBy}
        .value=${view.addText}
        ?disabled=${view.disabled}
        @input=${(event: Event) => view.addInput((event.target as HTMLInputElement).value)}
        @keydown=${(event: KeyboardEvent) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          view.add();
        }}
      />
      <button type="button" part="add-source-button" ?disabled=${view.disabled} @click=${view.add}>Add</button>
      <button type="button" part="retry-sources-button" ?disabled=${view.retrying} @click=${view.retry}>
        ${view.retrying ? 'Asking the sources…' : 'Retry sources'}
      </button>
    </div>
    ${addProblem.message}`;
}
