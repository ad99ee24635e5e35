import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { InstallRecord } from '@plughost/host-sdk';
import { DEFAULT_RECONNECT_DELAYS, DownloadEventConnection, type ConnectionState } from './plugin-download-center/event-connection.js';
import { backendFetch } from './plugin-manager/backend-request.js';
import { formatBytes, formatPercent, formatSpeed } from './plugin-download-center/format.js';
import {
  FINISHED,
  readSnapshot,
  type DownloadActionDetail,
  type DownloadCenterController,
  type DownloadCenterSource,
  type DownloadRemoveDetail,
  type DownloadSessionSnapshot,
  type DownloadSessionStatus,
} from './plugin-download-center/snapshot.js';

export type {
  DownloadActionDetail,
  DownloadCenterController,
  DownloadCenterSource,
  DownloadRemoveDetail,
  DownloadSessionSnapshot,
  DownloadSessionStatus,
} from './plugin-download-center/snapshot.js';
export { DEFAULT_RECONNECT_DELAYS } from './plugin-download-center/event-connection.js';

const STATUS_LABEL: Readonly<Record<DownloadSessionStatus, string>> = {
  queued: 'Queued',
  downloading: 'Downloading',
  paused: 'Paused',
  extracting: 'Extracting',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

type Action = 'cancel' | 'pause' | 'resume' | 'remove';

interface SessionEntry {
  snapshot: DownloadSessionSnapshot;
  /** When the element first saw it (ms), for sessions without `createdAt`. */
  readonly seen: number;
  readonly seq: number;
}

interface InstallEntry {
  readonly id: string;
  readonly record: InstallRecord;
  readonly seen: number;
  readonly seq: number;
}

type Row =
  | { readonly type: 'session'; readonly time: number; readonly seq: number; readonly entry: SessionEntry }
  | { readonly type: 'install'; readonly time: number; readonly seq: number; readonly entry: InstallEntry };

/** The file name at the end of a path (either separator). */
function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

function displayName(snapshot: DownloadSessionSnapshot): string {
  if (snapshot.name) return snapshot.name;
  if (snapshot.targetPath) return baseName(snapshot.targetPath);
  return snapshot.currentFile ?? snapshot.sessionId;
}

async function errorText(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // Not JSON: the status says enough.
  }
  return `The backend answered ${response.status}`;
}

/**
 * The download centre: live download sessions (file tasks and modpack installs) with their status,
 * progress, speed and files, newest first, plus the game installs plugins record with
 * `download.registerInstall`.
 *
 * Give it `source` (the local backend's origin and token) and it reads
 * `GET /api/plugins/download/events` itself, reconnecting after 1 s, 2 s, 5 s, 10 s, 20 s, then
 * every 30 s while the stream is down; or set `snapshots` from another transport. Each button
 * fires an event; with `controller="backend"` the element also performs the action against the
 * backend (`DELETE …/tasks/<id>`, `POST …/tasks/<id>/pause|resume`), unless a listener called
 * `preventDefault()`.
 *
 * @fires plugin-download-cancel - `{sessionId}`: Cancel on a queued, downloading, paused or extracting session. Cancelable.
 * @fires plugin-download-pause - `{sessionId}`: Pause on a queued or downloading session. Cancelable.
 * @fires plugin-download-resume - `{sessionId}`: Resume on a paused session, Retry on a failed one. Cancelable.
 * @fires plugin-download-remove - `{sessionId, record}`: Remove on a finished session (`record: 'session'`) or a game-install record (`'install'`). The row is removed unless a listener cancels the event.
 * @csspart list - The list of rows.
 * @csspart row - One session or game-install row.
 * @csspart status - The status badge of a row.
 * @csspart progress - The progress bar of a row.
 * @csspart actions - The buttons of a row.
 * @csspart notice - The "reconnecting" notice.
 * @csspart empty - The text shown when there is nothing to list: what appears here and how to start.
 * @slot empty - More for the empty state, after its text (the launcher's own action, such as a link to its store).
 * @cssprop --plugin-download-success - Colour of completed sessions (default green).
 * @cssprop --plugin-download-paused - Colour of paused sessions (default amber).
 * @cssprop --primary - Theme token (`H S% L%`): running sessions, buttons.
 * @cssprop --destructive - Theme token: failed sessions and their errors.
 * @cssprop --muted-foreground - Theme token: queued and cancelled sessions, secondary text.
 * @cssprop --card - Theme token: row background.
 * @cssprop --ring - Theme token: focus ring.
 * @attr controller - `events` (default) or `backend`: who performs the actions.
 *
 * @tagname plugin-download-center
 */
export class PluginDownloadCenter extends LitElement {
  static override styles = css`
    :host {
      display: block;
      color: hsl(var(--foreground, 222 47% 11%));
      --_success: var(--plugin-download-success, hsl(142 72% 29%));
      --_paused: var(--plugin-download-paused, hsl(26 90% 37%));
      --_primary: hsl(var(--primary, 222 47% 31%));
      --_destructive: hsl(var(--destructive, 0 72% 45%));
      --_muted: hsl(var(--muted-foreground, 215 16% 40%));
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
      grid-template-columns: 1fr auto;
      gap: 0.25rem 0.75rem;
      padding: 0.6rem 0.75rem;
      border: 1px solid hsl(var(--border, 214 32% 91%));
      border-left: 4px solid var(--_state);
      border-radius: 6px;
      background: hsl(var(--card, 0 0% 100%));
      color: hsl(var(--card-foreground, 222 47% 11%));
      --_state: var(--_muted);
    }
    li[data-status='downloading'],
    li[data-status='extracting'] {
      --_state: var(--_primary);
    }
    li[data-status='paused'] {
      --_state: var(--_paused);
    }
    li[data-status='completed'] {
      --_state: var(--_success);
    }
    li[data-status='failed'] {
      --_state: var(--_destructive);
    }
    li[data-record='install'] {
      --_state: var(--_primary);
    }
    .head {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 0.25rem 0.5rem;
      min-width: 0;
    }
    .name {
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .kind {
      font-size: 0.75rem;
      color: var(--_muted);
    }
    .status {
      font-size: 0.75rem;
      font-weight: 600;
      padding: 0.05rem 0.45rem;
      border-radius: 999px;
      color: var(--_state);
      border: 1px solid currentColor;
    }
    .details {
      grid-column: 1 / -1;
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem 1rem;
      font-size: 0.8rem;
      color: var(--_muted);
    }
    .details span {
      overflow-wrap: anywhere;
    }
    progress {
      grid-column: 1 / -1;
      width: 100%;
      height: 0.5rem;
      accent-color: var(--_state);
    }
    .error {
      grid-column: 1 / -1;
      margin: 0;
      color: var(--_destructive);
      overflow-wrap: anywhere;
    }
    .actions {
      grid-column: 2;
      grid-row: 1;
      display: flex;
      gap: 0.25rem;
      align-self: start;
    }
    button {
      font: inherit;
      font-size: 0.8rem;
      padding: 0.2rem 0.6rem;
      border-radius: 4px;
      border: 1px solid hsl(var(--border, 214 32% 91%));
      background: hsl(var(--secondary, 210 40% 96%));
      color: hsl(var(--secondary-foreground, 222 47% 11%));
      cursor: pointer;
    }
    button:hover {
      background: hsl(var(--accent, 210 40% 92%));
      color: hsl(var(--accent-foreground, 222 47% 11%));
    }
    button:focus-visible {
      outline: 2px solid hsl(var(--ring, 222 84% 55%));
      outline-offset: 2px;
    }
    button[data-action='cancel'] {
      color: var(--_destructive);
    }
    .notice {
      margin: 0 0 0.5rem;
      padding: 0.4rem 0.75rem;
      border-radius: 4px;
      background: hsl(var(--muted, 210 40% 96%));
      color: hsl(var(--muted-foreground, 215 16% 35%));
    }
    .empty {
      margin: 0;
      color: var(--_muted);
    }
    .empty strong {
      display: block;
      color: hsl(var(--foreground, 222 47% 11%));
    }
  `;

  /**
   * The local backend to read the event stream from (and act on, in `backend` mode): its origin
   * and bearer token. Setting it (re)connects; each reconnection reads it again.
   */
  @property({ attribute: false }) accessor source: DownloadCenterSource | undefined;

  /** `events` (default): buttons only fire events. `backend`: the element also calls the backend. */
  @property({ reflect: true }) accessor controller: DownloadCenterController = 'events';

  /** Delays in milliseconds before successive reconnections; the last one repeats. */
  @property({ attribute: false }) accessor reconnectDelays: readonly number[] = DEFAULT_RECONNECT_DELAYS;

  @state() private accessor connection: ConnectionState = { kind: 'idle' };

  readonly #sessions = new Map<string, SessionEntry>();
  readonly #installs = new Map<string, InstallEntry>();
  readonly #actionErrors = new Map<string, string>();
  #seq = 0;
  #stream: DownloadEventConnection | undefined;
  /** The source the running stream was started for. */
  #streamSource: DownloadCenterSource | undefined;

  /** The sessions shown, newest first. */
  get snapshots(): DownloadSessionSnapshot[] {
    return this.#rows().flatMap((row) => (row.type === 'session' ? [row.entry.snapshot] : []));
  }

  /**
   * Merges snapshots into the list (by `sessionId`, a newer snapshot replacing the older one),
   * as if they had arrived on the event stream. Entries that are not snapshots are ignored.
   */
  set snapshots(list: readonly DownloadSessionSnapshot[]) {
    for (const item of list) this.#upsert(item);
  }

  /** Adds or updates one session, as if it had arrived on the event stream. */
  upsertSnapshot(snapshot: DownloadSessionSnapshot): void {
    this.#upsert(snapshot);
  }

  /** Removes a session or game-install record from the list (nothing is sent to the backend). */
  removeEntry(id: string): void {
    this.#sessions.delete(id);
    this.#installs.delete(id);
    this.#actionErrors.delete(id);
    this.#changed();
  }

  /**
   * Records a game install (`download.registerInstall`): a row with its name, game version and
   * loader, and a Remove button. Returns the row's id (the `sessionId` of its remove event).
   */
  addInstallRecord(record: InstallRecord): string {
    this.#seq += 1;
    const id = `install-${this.#seq}`;
    this.#installs.set(id, { id, record: { ...record }, seen: Date.now(), seq: this.#seq });
    this.#changed();
    return id;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#restartStream();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopStream();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('source') && this.isConnected && this.#streamSource !== this.source) this.#restartStream();
  }

  #restartStream(): void {
    this.#stopStream();
    const source = this.source;
    if (!source) return;
    const stream: DownloadEventConnection = new DownloadEventConnection(
      () => this.source,
      () => this.reconnectDelays,
      {
        snapshot: (snapshot) => {
          if (this.#stream === stream) this.#upsert(snapshot);
        },
        state: (connection) => {
          if (this.#stream === stream) this.connection = connection;
        },
      },
    );
    this.#streamSource = source;
    this.#stream = stream;
    stream.start();
  }

  #stopStream(): void {
    this.#stream?.stop();
    this.#stream = undefined;
    this.#streamSource = undefined;
    this.connection = { kind: 'idle' };
  }

  #upsert(value: unknown): void {
    const snapshot = readSnapshot(value);
    if (!snapshot) return;
    const existing = this.#sessions.get(snapshot.sessionId);
    if (existing) {
      existing.snapshot = snapshot;
    } else {
      this.#seq += 1;
      this.#sessions.set(snapshot.sessionId, { snapshot, seen: Date.now(), seq: this.#seq });
    }
    this.#changed();
  }

  #changed(): void {
    this.requestUpdate();
  }

  #rows(): Row[] {
    const rows: Row[] = [];
    for (const entry of this.#sessions.values()) {
      const created = entry.snapshot.createdAt ? Date.parse(entry.snapshot.createdAt) : Number.NaN;
      rows.push({ type: 'session', time: Number.isFinite(created) ? created : entry.seen, seq: entry.seq, entry });
    }
    for (const entry of this.#installs.values()) rows.push({ type: 'install', time: entry.seen, seq: entry.seq, entry });
    return rows.sort((a, b) => b.time - a.time || b.seq - a.seq);
  }

  #fire(action: Action, detail: DownloadActionDetail | DownloadRemoveDetail): boolean {
    return this.dispatchEvent(new CustomEvent(`plugin-download-${action}`, { detail, bubbles: true, composed: true, cancelable: true }));
  }

  #onAction(action: Action, sessionId: string): void {
    this.#actionErrors.delete(sessionId);
    const detail: DownloadActionDetail | DownloadRemoveDetail = action === 'remove' ? { sessionId, record: 'session' } : { sessionId };
    const proceed = this.#fire(action, detail);
    if (!proceed) {
      this.#changed();
      return;
    }
    if (this.controller === 'backend') {
      void this.#perform(action, sessionId);
    } else if (action === 'remove') {
      this.removeEntry(sessionId);
    } else {
      this.#changed();
    }
  }

  #onRemoveInstall(id: string): void {
    if (this.#fire('remove', { sessionId: id, record: 'install' })) this.removeEntry(id);
  }

  async #perform(action: Action, sessionId: string): Promise<void> {
    const source = this.source;
    if (!source) {
      this.#actionErrors.set(sessionId, 'Not connected to the launcher backend');
      this.#changed();
      return;
    }
    const task = `/api/plugins/download/tasks/${encodeURIComponent(sessionId)}`;
    const path = action === 'pause' ? `${task}/pause` : action === 'resume' ? `${task}/resume` : task;
    const method = action === 'pause' || action === 'resume' ? 'POST' : 'DELETE';
    try {
      const response = await backendFetch(source, path, { method });
      if (action === 'remove' && (response.ok || response.status === 404)) {
        await response.body?.cancel().catch(() => undefined);
        this.removeEntry(sessionId);
        return;
      }
      if (!response.ok) {
        this.#actionErrors.set(sessionId, await errorText(response));
        this.#changed();
        return;
      }
      const body: unknown = await response.json().catch(() => null);
      const snapshot = readSnapshot(body);
      // A snapshot from the stream may have overtaken this answer; keep the newer one.
      const current = this.#sessions.get(sessionId)?.snapshot;
      if (snapshot && !(current?.updatedAt && snapshot.updatedAt && current.updatedAt > snapshot.updatedAt)) {
        this.#upsert(snapshot);
      }
    } catch (error) {
      this.#actionErrors.set(sessionId, error instanceof Error ? error.message : String(error));
      this.#changed();
    }
  }

  override render() {
    const rows = this.#rows();
    return html`${this.#renderNotice()}
      ${
        rows.length === 0
          ? html`<p class="empty" part="empty">
              <strong>No downloads yet.</strong> When a plugin downloads files (a mod into a game instance, a
              modpack) or you install a plugin from the store, its progress shows here, with pause, resume and cancel.
              <slot name="empty"></slot>
            </p>`
          : html`<ul part="list" aria-label="Downloads">
            ${rows.map((row) => (row.type === 'session' ? this.#renderSession(row.entry) : this.#renderInstall(row.entry)))}
          </ul>`
      }`;
  }

  #renderNotice() {
    const connection = this.connection;
    if (connection.kind !== 'reconnecting') return nothing;
    const seconds = Math.max(1, Math.round(connection.delayMs / 1000));
    return html`<p class="notice" part="notice" role="status">
      Connection to the download service lost (${connection.reason}). Reconnecting in ${seconds} s…
    </p>`;
  }

  #renderSession(entry: SessionEntry) {
    const s = entry.snapshot;
    const name = displayName(s);
    const kind = s.kind === 'modpack' ? 'Modpack' : 'File';
    const running = s.status === 'downloading' || s.status === 'extracting';
    // A file whose server sent no length has no meaningful percentage until it is in place.
    const indeterminate = s.status === 'downloading' && s.bytesTotal === null && s.progress === 0;
    const actionError = this.#actionErrors.get(s.sessionId);
    return html`<li part="row" data-record="session" data-session-id=${s.sessionId} data-status=${s.status} data-kind=${s.kind ?? 'file'}>
      <div class="head">
        <span class="name">${name}</span>
        <span class="kind">${kind}</span>
        <span class="status" part="status">${STATUS_LABEL[s.status]}</span>
        ${s.stage && s.stage !== STATUS_LABEL[s.status] ? html`<span class="kind stage">${s.stage}</span>` : nothing}
      </div>
      <div class="actions" part="actions">${this.#renderButtons(s, name)}</div>
      ${
        indeterminate
          ? html`<progress part="progress" max="100" aria-label=${`${name} progress`}></progress>`
          : html`<progress
            part="progress"
            max="100"
            .value=${s.progress}
            aria-label=${`${name} progress`}
            aria-valuetext=${formatPercent(s.progress)}
          ></progress>`
      }
      <div class="details">
        ${indeterminate ? nothing : html`<span class="percent">${formatPercent(s.progress)}</span>`}
        ${running && s.speed > 0 ? html`<span class="speed">${formatSpeed(s.speed)}</span>` : nothing}
        ${
          s.bytesDownloaded !== undefined && s.bytesDownloaded > 0 && !FINISHED.has(s.status)
            ? html`<span class="bytes"
              >${formatBytes(s.bytesDownloaded)}${typeof s.bytesTotal === 'number' && s.bytesTotal > 0 ? ` of ${formatBytes(s.bytesTotal)}` : ''}</span
            >`
            : nothing
        }
        ${s.totalFiles > 1 || s.kind === 'modpack' ? html`<span class="files">${s.completedFiles}/${s.totalFiles} files</span>` : nothing}
        ${s.failedFiles > 0 ? html`<span class="failed-files">${s.failedFiles} failed</span>` : nothing}
        ${s.currentFile ? html`<span class="current-file">${s.currentFile}</span>` : nothing}
      </div>
      ${s.status === 'failed' && s.error ? html`<p class="error">${s.error}</p>` : nothing}
      ${actionError ? html`<p class="error action-error" role="alert">${actionError}</p>` : nothing}
    </li>`;
  }

  #renderButtons(s: DownloadSessionSnapshot, name: string) {
    const buttons: { action: Action; label: string }[] = [];
    if (s.status === 'downloading' || s.status === 'queued') buttons.push({ action: 'pause', label: 'Pause' });
    if (s.status === 'paused') buttons.push({ action: 'resume', label: 'Resume' });
    if (s.status === 'failed') buttons.push({ action: 'resume', label: 'Retry' });
    if (!FINISHED.has(s.status)) buttons.push({ action: 'cancel', label: 'Cancel' });
    if (FINISHED.has(s.status)) buttons.push({ action: 'remove', label: 'Remove' });
    return buttons.map(
      (button) => html`<button
        type="button"
        data-action=${button.action}
        aria-label=${`${button.label} ${name}`}
        @click=${() => this.#onAction(button.action, s.sessionId)}
      >
        ${button.label}
      </button>`,
    );
  }

  #renderInstall(entry: InstallEntry) {
    const r = entry.record;
    const loader = [r.loader, r.loaderVersion].filter((part) => part).join(' ');
    return html`<li part="row" data-record="install" data-session-id=${entry.id} data-kind="install">
      <div class="head">
        <span class="name">${r.name}</span>
        <span class="kind">Game install</span>
      </div>
      <div class="actions" part="actions">
        <button
          type="button"
          data-action="remove"
          aria-label=${`Remove ${r.name}`}
          @click=${() => this.#onRemoveInstall(entry.id)}
        >
          Remove
        </button>
      </div>
      <div class="details">
        <span class="game-version">Version ${r.gameVersion}</span>
        ${loader ? html`<span class="loader">${loader}</span>` : nothing}
        ${r.instanceId ? html`<span class="instance">${r.instanceId}</span>` : nothing}
      </div>
    </li>`;
  }
}
