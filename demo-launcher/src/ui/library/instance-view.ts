import { html } from 'lit';
import type { GameLibrary } from './game-library.js';
import { instanceIcon } from './instance-icon.js';
import { gameText, playedText } from './library-view.js';
import type { LaunchRecord } from './library-types.js';
import { clockTime } from './time-text.js';

function outcomeText(record: LaunchRecord): string {
  if (record.outcome === 'prevented') return `Prevented by a plugin at ${clockTime(record.startedAt)}: ${record.preventedReason ?? 'no reason given'}`;
  return `Ran at ${clockTime(record.startedAt)} and exited with code ${record.exitCode ?? 'unknown'}`;
}

function renderLastLaunch(record: LaunchRecord | null | undefined) {
  if (record === undefined) return html`<p class="hint">Reading the last launch…</p>`;
  if (record === null) return html`<p class="hint">Not launched yet. Launch it to see its log here.</p>`;
  return html`<p class="launch-outcome" data-outcome=${record.outcome}>${outcomeText(record)}</p>
    <pre class="launch-log" aria-label="Log of the last launch" tabindex="0">${record.lines.map((line) => `[${clockTime(line.at)}] ${line.text}\n`)}</pre>`;
}

/**
 * An instance's page: its picture and facts, Launch (through the plugins' `launchGame` hooks) and
 * the log of its last launch.
 */
export function renderInstancePage(library: GameLibrary, instanceId: string, onLaunch: () => void) {
  const instance = library.instance(instanceId);
  if (!instance) {
    return html`<h1 id="instance-title">Instance</h1>
      ${library.loading ? html`<p class="hint">Loading…</p>` : html`<p class="banner error" role="alert">No instance ${instanceId}.</p>`}`;
  }
  const launching = library.launching === instance.id;
  return html`<p><a class="back-link" href="#/">← Game library</a></p>
    <header class="instance-header">
      ${instanceIcon(instance.icon)}
      <div>
        <h1 id="instance-title">${instance.name}</h1>
        <p class="hint">${gameText(instance)} · ${playedText(instance)}</p>
      </div>
      <button type="button" class="primary launch-button" ?disabled=${library.launching !== null} @click=${onLaunch}>
        ${launching ? 'Running…' : 'Launch'}
      </button>
    </header>
    <dl class="instance-facts">
      <dt>Memory</dt>
      <dd>${instance.maxMemory} MiB</dd>
      <dt>Folder</dt>
      <dd><code>${instance.gameDir}</code></dd>
    </dl>
    <h2>Last launch</h2>
    ${renderLastLaunch(library.lastLaunch(instance.id))}`;
}
