import { LitElement, css, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { AvailableUpdate, PluginInfo, PluginManifest, PluginStatus } from '@plughost/host-sdk/core';
import { cardIconValue, initialOf, resolveCardIcon } from './plugin-manager/card-icon.js';
import { messageOf } from './plugin-manager/backend-request.js';
import type { PluginUpdates } from './plugin-manager/plugin-updates.js';
import { UpdateConsentPrompt, updateConsentStyles } from './plugin-manager/update-consent.js';
import { storeRecordOf } from './plugin-manager/update-data.js';
import { UpdatesSubscription } from './plugin-manager/updates-subscription.js';
import { buttonStyles, cardIconStyles, dialogStyles, switchStyles } from './shared-styles.js';

export type { PluginInfo, PluginStatus };

/**
 * A plugin card's data: the PluginInfo (with `store` for a plugin installed from a store, absent
 * for one installed from a file, which is never checked for updates, and `restartPending` while a
 * restart would load something else), plus the manifest when the launcher has it (icon,
 * permissions).
 */
export type ManagedPlugin = PluginInfo & { readonly manifest?: PluginManifest };

/** `detail` of `plugin-toggle`: the plugin and the state the user chose. */
export interface PluginToggleDetail {
  readonly id: string;
  readonly enabled: boolean;
}

/** `detail` of `plugin-rollback`, `plugin-uninstall` and `plugin-restart`: the plugin of the card. */
export interface PluginIdDetail {
  readonly id: string;
}

/** `detail` of `plugin-updated` and `plugin-rolled-back`: the plugin and the version now on disk (loaded at the next restart). */
export interface PluginVersionChangeDetail {
  readonly id: string;
  readonly version: string;
  /** The backend's PluginInfo after the change. */
  readonly plugin: PluginInfo;
}

/** `detail` of `plugin-update-failed`: what failed and the backend's message. */
export interface PluginUpdateFailedDetail {
  /** The plugin, or null for "Check for updates" and restart. */
  readonly id: string | null;
  readonly action: 'update' | 'rollback' | 'check' | 'restart';
  /** The backend's error code (`CONSENT_REQUIRED`, `SIGNATURE_INVALID`, ...), `NETWORK_ERROR` when it was not reached. */
  readonly code: string;
  readonly message: string;
}

const STATUS_LABEL: Readonly<Record<PluginStatus, string>> = {
  active: 'Active',
  installed: 'Installed',
  disabled: 'Disabled',
};

/** The date and time of `iso` for people, or the text itself when it is not a date. */
function formatTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : new Date(time).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** `host[:port]` of a store source for people, or the text itself when it is not a URL. */
function storeHost(source: string): string {
  try {
    return new URL(source).host || source;
  } catch {
    return source;
  }
}

// The backend refuses this rollback with no override (decisions section 12), so the card says why
// the button is missing rather than offering one that can only fail.
const ROLLBACK_REFUSED =
  'Roll back is not offered: the previous version kept for it was signed by a developer key the store has revoked, so it cannot be restored.';

// The store withdrew its trust from the key, but an installed plugin keeps running (decisions
// section 8): the user decides, so the badge says what it means and what to do.
const REVOKED_TITLE =
  'The store has revoked the developer key that signed this version (it may have been stolen or replaced). The plugin still runs, but no update signed by that key can be installed. Uninstall it unless you trust this copy.';

/**
 * True when a launcher restart would change what runs: the backend says so (`restartPending`), or
 * the user's choice (`enabled`) differs from what the status at the last read implies (an active
 * plugin switched off, a disabled plugin switched on, or an installed plugin switched on that has
 * a page to activate or whose manifest is unknown), for backends that do not send
 * `restartPending`. A never-enabled `installed` plugin has nothing pending then, nor has a dev plugin.
 */
export function needsRestart(plugin: ManagedPlugin): boolean {
  // A dev plugin runs what its dev server serves; a restart changes nothing about it.
  if (plugin.dev !== undefined) return false;
  if (plugin.restartPending === true) return true;
  switch (plugin.status) {
    case 'active':
      return !plugin.enabled;
    case 'disabled':
      return plugin.enabled;
    case 'installed':
      return plugin.enabled && (plugin.manifest === undefined || plugin.manifest.entry?.frontend !== undefined);
    default:
      return false;
  }
}

function byName(a: ManagedPlugin, b: ManagedPlugin): number {
  return String(a.name).localeCompare(String(b.name), undefined, { sensitivity: 'base', numeric: true }) || String(a.id).localeCompare(String(b.id));
}

function defaultFilesBase(id: string): string {
  return `/api/plugins/${encodeURIComponent(id)}/files`;
}

/**
 * The list of installed plugins as cards, sorted by name. Each card shows the plugin's icon
 * (`contributes.menuItems[0].icon`, then `icon`; an icon-font class, an image, or the plugin's
 * initial), name, version and status badge, an enable/disable switch, a "Restart the launcher to
 * apply" notice while the switch differs from what the status implies, "Roll back" (only when a
 * previous version is kept), "Uninstall" with an inline confirm step, and a details toggle
 * listing the plugin's permissions.
 *
 * The element calls no backend. It fires events; the launcher calls the backend
 * (`PUT /api/plugins/<id>/state`, `POST .../rollback`, `DELETE /api/plugins/<id>`,
 * `POST /api/launcher/restart`), lists the ids it is working on in `busyIds` (their buttons are
 * disabled meanwhile), and then sets `plugins` to the new list. The switch shows `enabled` from
 * `plugins`; it does not flip on its own.
 *
 * Updates: give it `updates` (a {@link PluginUpdates} on the local backend, shared with
 * `<plugin-store>`) and it reads `GET /api/plugins/updates` itself. A card whose plugin is listed
 * gets an "Update available" badge, the new version's changelog (as text) and "Update to x.y.z";
 * when the new version adds permissions, a consent dialog lists only those, with their risk
 * colours, and the update runs (`POST /api/plugins/<id>/update` with `acceptPermissions`) only
 * after "Allow and update". A 409 `CONSENT_REQUIRED` (the update changed meanwhile) asks again
 * with the backend's list. While it downloads the button is disabled with a progress text; then
 * the card shows the new version as "Restart to apply", never "Active" for a version the launcher
 * has not loaded; given `loadedVersions` (what the launcher runs), it shows the running version
 * instead and its notice names both. The same badge shows for every plugin whose PluginInfo has `restartPending`
 * (installed, updated, rolled back or switched since the launcher loaded it), so the state
 * survives a reload of the page. "Check for updates" asks the backend to check now. A plugin
 * without `store` (PluginInfo's store record) says "Installed from a file"; one with `store` names
 * the store host it came from (also without `updates`). With `updates` set, "Roll back" and "Restart" are also
 * performed by the element (`POST .../rollback`, `POST /api/launcher/restart`, then the page
 * reloads) unless a listener of `plugin-rollback` or `plugin-restart` calls `preventDefault()`.
 * Failures show the backend's message on the card.
 *
 * Dev plugins (PluginInfo `dev`, listed by a launcher in development mode while `pluginctl dev`
 * serves them) carry a "dev" badge (text, not colour alone) and the dev server's address, or what
 * keeps them from loading; they have no switch, no "Uninstall", "Roll back" or update, and never a
 * restart notice: the dev server, not the launcher, decides what runs.
 *
 * Icon-font classes need the font's stylesheet inside the shadow root: set `icon-stylesheet` to
 * its URL (the page must load the same stylesheet too, for its `@font-face`). Plugin-supplied
 * strings are only ever set as text or attribute values, never as HTML.
 *
 * @fires plugin-toggle - `CustomEvent<{id: string, enabled: boolean}>`: the switch was used; `enabled` is the new choice.
 * @fires plugin-restart - `CustomEvent<{id: string}>`: "Restart" or "Restart to apply" on a card's notice (the launcher restarts). Cancelable; with `updates` set the element restarts unless cancelled.
 * @fires plugin-rollback - `CustomEvent<{id: string}>`: "Roll back" was chosen. Cancelable; with `updates` set the element rolls back unless cancelled.
 * @fires plugin-uninstall - `CustomEvent<{id: string}>`: "Confirm uninstall" was chosen.
 * @fires plugin-updated - `CustomEvent<{id: string, version: string, plugin: PluginInfo}>`: an update was installed (it runs after a restart); set `plugins` again.
 * @fires plugin-rolled-back - `CustomEvent<{id: string, version: string, plugin: PluginInfo}>`: the element rolled a plugin back (it runs after a restart); set `plugins` again.
 * @fires plugin-update-failed - `CustomEvent<{id: string | null, action: 'update' | 'rollback' | 'check' | 'restart', code: string, message: string}>`: an update action failed (the message is also shown).
 * @attr icon-stylesheet - URL of the icon font's stylesheet, linked inside the shadow root.
 * @csspart list - The `<ul>` of cards.
 * @csspart card - One plugin card (`data-plugin-id`).
 * @csspart icon - The icon box.
 * @csspart name - The plugin name.
 * @csspart version - The version text.
 * @csspart status - The status badge (`data-status` is `active`, `installed`, `disabled`, `pending-restart`, "Restart to apply", while the plugin has `restartPending` or an update or rollback of this page waits for the restart, or `unavailable` for a dev plugin that cannot be loaded now).
 * @csspart revoked - The "Signing key revoked" badge, shown when `signerRevoked` is true.
 * @csspart dev-badge - The "dev" badge of a dev plugin.
 * @csspart dev-note - "Served by the dev server at …" on a dev plugin's card.
 * @csspart dev-problem - Why a dev plugin cannot be loaded now (`role="alert"`).
 * @csspart switch - The enable/disable switch.
 * @csspart restart-notice - The "Restart the launcher to apply" notice.
 * @csspart restart-button - Its "Restart" button.
 * @csspart actions - The row of card buttons.
 * @csspart details-button - The details toggle.
 * @csspart rollback-button - "Roll back".
 * @csspart uninstall-button - "Uninstall".
 * @csspart confirm-uninstall-button - "Confirm uninstall".
 * @csspart cancel-uninstall-button - "Cancel" of the confirm step.
 * @csspart details - The details region with the permissions.
 * @csspart empty - The text shown when no plugin is installed.
 * @csspart updates-toolbar - The row above the cards with the update status and "Check for updates" (only with `updates`).
 * @csspart updates-status - The number of available updates and when the backend last checked.
 * @csspart check-button - "Check for updates".
 * @csspart updates-error - A failed read or check of the updates (`role="alert"`).
 * @csspart update - A card's update box (`data-version`).
 * @csspart update-badge - The "Update available" badge.
 * @csspart update-button - "Update to x.y.z" ("Updating…" while it runs).
 * @csspart update-progress - The progress text while an update downloads and installs.
 * @csspart changelog - The new version's changelog, its line breaks kept.
 * @csspart update-error - A failed update or rollback, with the backend's message (`role="alert"`).
 * @csspart source-note - "Installed from a file" on a plugin without a store record.
 * @csspart store-source - "From the store at <host>" on a plugin installed from a store (`title` is the full source URL).
 * @csspart rollback-note - Why "Roll back" is not offered when the kept version's signer is revoked (`rollbackSignerRevoked`).
 * @csspart update-consent - The consent dialog of an update's added permissions.
 * @csspart consent-permissions - Its `<plugin-permission-list>`.
 * @csspart consent-allow-button - "Allow and update".
 * @csspart consent-cancel-button - "Cancel".
 * @cssprop --card - Card background (theme token, `H S% L%`).
 * @cssprop --card-foreground - Card text (theme token).
 * @cssprop --border - Card border (theme token).
 * @cssprop --muted - Icon box and disabled badge background (theme token).
 * @cssprop --muted-foreground - Secondary text (theme token).
 * @cssprop --primary - Active badge, switch on (theme token).
 * @cssprop --primary-foreground - Text on primary (theme token).
 * @cssprop --secondary - Buttons and installed badge (theme token).
 * @cssprop --secondary-foreground - Text on secondary (theme token).
 * @cssprop --input - Switch track when off (theme token).
 * @cssprop --background - Switch thumb (theme token).
 * @cssprop --accent - Restart notice background (theme token).
 * @cssprop --accent-foreground - Restart notice text (theme token).
 * @cssprop --destructive - "Confirm uninstall" and "Signing key revoked" background (theme token).
 * @cssprop --destructive-foreground - Text on those (theme token).
 * @cssprop --ring - Focus ring (theme token).
 * @cssprop --popover - Consent dialog background (theme token).
 * @cssprop --popover-foreground - Consent dialog text (theme token).
 * @cssprop --plugin-risk-normal - Normal-risk permission colour, passed to `<plugin-permission-list>`.
 * @cssprop --plugin-risk-warning - Warning-risk permission colour.
 * @cssprop --plugin-risk-danger - Danger-risk permission colour.
 *
 * @tagname plugin-manager
 */
export class PluginManager extends LitElement {
  static override styles = [
    cardIconStyles,
    buttonStyles,
    switchStyles,
    dialogStyles,
    updateConsentStyles,
    css`
    :host {
      display: block;
      color: hsl(var(--card-foreground, 0 0% 10%));
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.75rem;
    }
    .card {
      padding: 0.75rem 1rem;
      border: 1px solid hsl(var(--border, 0 0% 85%));
      border-radius: 0.75rem;
      background: hsl(var(--card, 0 0% 100%));
      color: hsl(var(--card-foreground, 0 0% 10%));
    }
    .card[aria-busy='true'] {
      opacity: 0.75;
    }
    .head {
      display: grid;
      grid-template-columns: auto 1fr auto;
      gap: 0.75rem;
      align-items: center;
    }
    .title {
      min-width: 0;
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 0.25rem 0.5rem;
    }
    /* A card's title: a level-2 heading under the launcher page's own h1. */
    h2 {
      margin: 0;
      font-size: 1rem;
      overflow-wrap: anywhere;
    }
    .version {
      color: hsl(var(--muted-foreground, 0 0% 40%));
      font-size: 0.85rem;
    }
    /* The badges of a card: its status, a revoked signer, an update. */
    .status,
    .revoked,
    .update-badge {
      padding: 0.05rem 0.5rem;
      border-radius: 999px;
      font-size: 0.75rem;
      font-weight: 600;
    }
    .status[data-status='active'] {
      background: hsl(var(--primary, 222 47% 11%));
      color: hsl(var(--primary-foreground, 0 0% 98%));
    }
    .status[data-status='installed'] {
      background: hsl(var(--secondary, 210 40% 92%));
      color: hsl(var(--secondary-foreground, 222 47% 11%));
    }
    .status[data-status='disabled'] {
      background: hsl(var(--muted, 210 40% 96%));
      color: hsl(var(--muted-foreground, 0 0% 35%));
    }
    .revoked {
      background: hsl(var(--destructive, 0 72% 51%));
      color: hsl(var(--destructive-foreground, 0 0% 98%));
    }
    .dev-badge {
      padding: 0.05rem 0.5rem;
      border-radius: 999px;
      font-size: 0.75rem;
      font-weight: 600;
      font-family: ui-monospace, monospace;
      border: 1px solid currentColor;
      color: hsl(var(--accent-foreground, 222 47% 11%));
      background: hsl(var(--accent, 210 40% 94%));
    }
    .status[data-status='unavailable'] {
      background: hsl(var(--muted, 210 40% 96%));
      color: hsl(var(--muted-foreground, 0 0% 35%));
      border: 1px dashed currentColor;
    }
    button:focus-visible {
      outline: 2px solid hsl(var(--ring, 217 91% 60%));
      outline-offset: 2px;
    }
    .notice {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.5rem;
      margin-top: 0.75rem;
      padding: 0.4rem 0.75rem;
      border-radius: 0.5rem;
      background: hsl(var(--accent, 210 40% 94%));
      color: hsl(var(--accent-foreground, 222 47% 11%));
      font-size: 0.875rem;
    }
    .notice span {
      flex: 1;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
      margin-top: 0.75rem;
    }
    .actions .end {
      margin-left: auto;
      display: flex;
      gap: 0.5rem;
    }
    .confirm {
      background: hsl(var(--destructive, 0 84% 60%));
      color: hsl(var(--destructive-foreground, 0 0% 98%));
      border-color: transparent;
    }
    .details {
      margin-top: 0.75rem;
      font-size: 0.9rem;
    }
    .details p {
      margin: 0 0 0.5rem;
      overflow-wrap: anywhere;
    }
    .mono {
      font-family: ui-monospace, monospace;
      font-size: 0.85em;
    }
    h3 {
      margin: 0.5rem 0;
      font-size: 0.9rem;
    }
    .empty {
      margin: 0;
      padding: 1rem;
      color: hsl(var(--muted-foreground, 0 0% 40%));
      font-style: italic;
    }
    .status[data-status='pending-restart'] {
      background: hsl(var(--accent, 210 40% 94%));
      color: hsl(var(--accent-foreground, 222 47% 11%));
      border: 1px dashed currentColor;
    }
    .toolbar {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.5rem 1rem;
      margin-bottom: 0.75rem;
      font-size: 0.875rem;
      color: hsl(var(--muted-foreground, 0 0% 40%));
    }
    .toolbar [part~='updates-status'] {
      flex: 1;
    }
    .update {
      display: grid;
      grid-template-columns: 1fr auto;
      gap: 0.4rem 0.75rem;
      align-items: center;
      margin-top: 0.75rem;
      padding: 0.5rem 0.75rem;
      border: 1px solid hsl(var(--primary, 222 47% 11%) / 0.35);
      border-radius: 0.5rem;
      font-size: 0.875rem;
    }
    .update-badge {
      justify-self: start;
      background: hsl(var(--primary, 222 47% 11%));
      color: hsl(var(--primary-foreground, 0 0% 98%));
    }
    .update .primary {
      border-color: transparent;
      background: hsl(var(--primary, 222 47% 11%));
      color: hsl(var(--primary-foreground, 0 0% 98%));
    }
    .changelog {
      grid-column: 1 / -1;
      margin: 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      max-height: 8rem;
      overflow: auto;
    }
    .progress {
      grid-column: 1 / -1;
      display: flex;
      align-items: center;
      gap: 0.5rem;
    }
    .spinner {
      width: 0.9rem;
      height: 0.9rem;
      border: 2px solid currentColor;
      border-right-color: transparent;
      border-radius: 50%;
      animation: spin 0.8s linear infinite;
    }
    @keyframes spin {
      to {
        transform: rotate(360deg);
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .spinner {
        animation: none;
      }
    }
    .problem {
      margin: 0.75rem 0 0;
      color: hsl(var(--destructive, 0 72% 45%));
      font-size: 0.875rem;
      overflow-wrap: anywhere;
    }
    .source-note {
      margin: 0.5rem 0 0;
      font-size: 0.8rem;
      color: hsl(var(--muted-foreground, 0 0% 40%));
    }
  `,
  ];

  /** The installed plugins (`GET /api/plugins/`), each with its manifest when known. Shown sorted by name. */
  @property({ attribute: false }) accessor plugins: readonly ManagedPlugin[] = [];

  /** The URL of a plugin's files folder, against which icon package paths resolve. */
  @property({ attribute: false }) accessor filesBase: (id: string) => string = defaultFilesBase;

  /** Ids of plugins with an operation running: their card's buttons are disabled. */
  @property({ attribute: false }) accessor busyIds: readonly string[] = [];

  /** URL of the icon font's stylesheet, linked inside the shadow root so icon classes apply. */
  @property({ attribute: 'icon-stylesheet' }) accessor iconStylesheet: string | undefined;

  /**
   * The update flow on the local backend, shared with `<plugin-store>`. Without it the manager
   * shows no updates and leaves rollback and restart to the launcher.
   */
  @property({ attribute: false }) accessor updates: PluginUpdates | undefined;

  /**
   * The version the launcher runs now of each plugin it has loaded (`PluginHost.plugin(id).manifest.version`).
   * While a restart is pending, a card shows that version, not the one waiting on disk, and its
   * notice names both (also after a reload of the page, a reinstall or an install from the store).
   */
  @property({ attribute: false }) accessor loadedVersions: Readonly<Record<string, string>> = {};

  /** The message of a failed restart, shown in the notices. */
  @state() private accessor restartError: string | null = null;

  private readonly subscription = new UpdatesSubscription(this);
  private readonly consent = new UpdateConsentPrompt(this);

  /** Ids whose "Uninstall" is waiting for confirmation. */
  @state() private accessor confirming: ReadonlySet<string> = new Set();

  /** Ids whose details are shown. */
  @state() private accessor expanded: ReadonlySet<string> = new Set();

  /** Image icons that failed to load (`id` + src), shown as the initial instead. */
  @state() private accessor brokenImages: ReadonlySet<string> = new Set();

  /** A button to focus after the next render: the plugin id and the button's part name. */
  private pendingFocus: { id: string; part: string } | null = null;

  /**
   * Plugins whose version the launcher runs is not known here: they already had `restartPending`
   * when this page updated or rolled them back, so what runs is older than the version replaced.
   */
  private readonly loadedUnknown = new Set<string>();

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('updates')) this.subscription.follow(this.updates);
    if (changed.has('plugins')) {
      // Forget confirm steps and details of plugins that are gone.
      const ids = new Set(this.plugins.map((plugin) => plugin.id));
      const keep = (set: ReadonlySet<string>) => new Set([...set].filter((id) => ids.has(id)));
      if ([...this.confirming].some((id) => !ids.has(id))) this.confirming = keep(this.confirming);
      if ([...this.expanded].some((id) => !ids.has(id))) this.expanded = keep(this.expanded);
    }
  }

  protected override updated(): void {
    const target = this.pendingFocus;
    if (!target) return;
    this.pendingFocus = null;
    const card = [...this.renderRoot.querySelectorAll<HTMLElement>('li[data-plugin-id]')].find((li) => li.dataset.pluginId === target.id);
    card?.querySelector<HTMLElement>(`[part~="${target.part}"]`)?.focus();
  }

  /** Fires `name`; false when a listener cancelled it (only cancelable events can be). */
  private emit<T>(name: string, detail: T, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent<T>(name, { detail, bubbles: true, composed: true, cancelable }));
  }

  /** The update offered for `plugin`: listed by the backend and not the version already on disk. */
  private offeredUpdate(plugin: ManagedPlugin): AvailableUpdate | undefined {
    const update = this.updates?.updateFor(plugin.id);
    if (!update) return undefined;
    const onDisk = this.updates?.pendingRestart(plugin.id)?.version ?? plugin.version;
    return update.latestVersion === onDisk ? undefined : update;
  }

  private async runUpdate(plugin: ManagedPlugin): Promise<void> {
    const updates = this.updates;
    if (!updates) return;
    const name = String(plugin.name || plugin.id);
    this.noteLoadedVersion(plugin);
    const result = await updates.update(plugin.id, (request) => this.consent.ask(request, name), { restartPending: plugin.restartPending === true });
    if (result.kind === 'updated') {
      this.emit<PluginVersionChangeDetail>('plugin-updated', { id: plugin.id, version: result.version, plugin: result.plugin });
    } else if (result.kind === 'failed') {
      this.emit<PluginUpdateFailedDetail>('plugin-update-failed', { id: plugin.id, action: 'update', code: result.code, message: result.message });
    }
  }

  private rollback(plugin: ManagedPlugin): void {
    const id = plugin.id;
    const go = this.emit<PluginIdDetail>('plugin-rollback', { id }, true);
    const updates = this.updates;
    if (!go || !updates) return;
    this.noteLoadedVersion(plugin);
    void updates.rollback(id, updates.pendingRestart(id)?.version ?? plugin.version, { restartPending: plugin.restartPending === true }).then((result) => {
      if (result.kind === 'rolled-back') {
        this.emit<PluginVersionChangeDetail>('plugin-rolled-back', { id, version: result.version, plugin: result.plugin });
      } else if (result.kind === 'failed') {
        this.emit<PluginUpdateFailedDetail>('plugin-update-failed', { id, action: 'rollback', code: result.code, message: result.message });
      }
    });
  }

  /** Before an update or rollback: whether the version it replaces is the one the launcher runs. */
  private noteLoadedVersion(plugin: ManagedPlugin): void {
    if (this.updates?.pendingRestart(plugin.id)) return;
    if (plugin.restartPending === true) this.loadedUnknown.add(plugin.id);
    else this.loadedUnknown.delete(plugin.id);
  }

  private restart(id: string): void {
    const go = this.emit<PluginIdDetail>('plugin-restart', { id }, true);
    const updates = this.updates;
    if (!go || !updates) return;
    this.restartError = null;
    updates.restart().catch((error: unknown) => {
      this.restartError = messageOf(error);
      const code = typeof (error as { code?: unknown }).code === 'string' ? String((error as { code: string }).code) : 'INTERNAL_ERROR';
      this.emit<PluginUpdateFailedDetail>('plugin-update-failed', { id: null, action: 'restart', code, message: this.restartError });
    });
  }

  private async checkForUpdates(): Promise<void> {
    const updates = this.updates;
    if (!updates) return;
    await updates.check();
    const { error, errorCode } = updates.state;
    if (error !== null)
      this.emit<PluginUpdateFailedDetail>('plugin-update-failed', { id: null, action: 'check', code: errorCode ?? 'INTERNAL_ERROR', message: error });
  }

  private with(set: ReadonlySet<string>, id: string, present: boolean): ReadonlySet<string> {
    const next = new Set(set);
    if (present) next.add(id);
    else next.delete(id);
    return next;
  }

  private toggle(plugin: ManagedPlugin): void {
    this.emit<PluginToggleDetail>('plugin-toggle', { id: plugin.id, enabled: !plugin.enabled });
  }

  private askUninstall(id: string): void {
    this.confirming = this.with(this.confirming, id, true);
    this.pendingFocus = { id, part: 'cancel-uninstall-button' };
  }

  private cancelUninstall(id: string): void {
    this.confirming = this.with(this.confirming, id, false);
    this.pendingFocus = { id, part: 'uninstall-button' };
  }

  private confirmUninstall(id: string): void {
    this.confirming = this.with(this.confirming, id, false);
    this.pendingFocus = { id, part: 'uninstall-button' };
    this.emit<PluginIdDetail>('plugin-uninstall', { id });
  }

  private onConfirmKeydown(event: KeyboardEvent, id: string): void {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    this.cancelUninstall(id);
  }

  override render() {
    const stylesheet = this.iconStylesheet ? html`<link rel="stylesheet" href=${this.iconStylesheet} />` : nothing;
    if (this.plugins.length === 0) {
      return html`${stylesheet}<p class="empty" part="empty">No plugins are installed.</p>${this.consent.render()}`;
    }
    const busy = new Set(this.busyIds);
    const sorted = [...this.plugins].sort(byName);
    return html`${stylesheet} ${this.updates ? this.renderUpdatesToolbar(this.updates) : nothing}
      <ul part="list" aria-label="Installed plugins">
        ${repeat(
          sorted,
          (plugin) => plugin.id,
          (plugin, index) => this.renderCard(plugin, `p${index}`, busy.has(plugin.id)),
        )}
      </ul>
      ${this.consent.render()}`;
  }

  private renderUpdatesToolbar(updates: PluginUpdates) {
    const { status, checking, checkedAt, error } = updates.state;
    const count = this.plugins.filter((plugin) => this.offeredUpdate(plugin) !== undefined).length;
    let summary: string;
    if (checking) summary = 'Checking for updates…';
    else if (status === 'idle' || status === 'loading') summary = 'Looking for updates…';
    else if (status === 'error') summary = 'The list of updates could not be read.';
    else if (count === 0) summary = 'All plugins are up to date.';
    else summary = count === 1 ? '1 update available.' : `${count} updates available.`;
    const checked = checkedAt ? ` Last checked ${formatTime(checkedAt)}.` : '';
    return html`<div class="toolbar" part="updates-toolbar">
      <span part="updates-status" role="status">${summary}${checked}</span>
      <button type="button" part="check-button" ?disabled=${checking} @click=${() => void this.checkForUpdates()}>
        ${checking ? 'Checking…' : 'Check for updates'}
      </button>
      ${error !== null ? html`<p class="problem" part="updates-error" role="alert">${error}</p>` : nothing}
    </div>`;
  }

  private renderUpdate(plugin: ManagedPlugin, update: AvailableUpdate, key: string, busy: boolean) {
    const progress = this.updates?.progressOf(plugin.id);
    const running = progress?.phase === 'installing' || progress?.phase === 'consent';
    let label = `Update to ${update.latestVersion}`;
    if (progress?.phase === 'installing') label = 'Updating…';
    else if (progress?.phase === 'consent') label = 'Waiting for your consent…';
    return html`<div class="update" part="update" data-version=${update.latestVersion} aria-labelledby="${key}-update">
      <span class="update-badge" part="update-badge" id="${key}-update">Update available: ${update.latestVersion}</span>
      <button
        type="button"
        class="primary"
        part="update-button"
        aria-describedby="${key}-name"
        ?disabled=${busy || running}
        @click=${() => void this.runUpdate(plugin)}
      >
        ${label}
      </button>
      ${
        progress?.phase === 'installing'
          ? html`<span class="progress" part="update-progress" role="status"
            ><span class="spinner" aria-hidden="true"></span>Downloading and checking version ${progress.version}…</span
          >`
          : nothing
      }
      ${update.changelog ? html`<p class="changelog" part="changelog" aria-label="Changes in ${update.latestVersion}">${update.changelog}</p>` : nothing}
    </div>`;
  }

  private renderIcon(plugin: ManagedPlugin) {
    const name = String(plugin.name ?? '');
    let base: string;
    try {
      base = this.filesBase(plugin.id);
    } catch {
      base = defaultFilesBase(plugin.id);
    }
    const icon = resolveCardIcon(cardIconValue(plugin.manifest), name, base);
    const imageKey = icon.kind === 'image' ? `${plugin.id}\n${icon.src}` : '';
    const kind = icon.kind === 'image' && this.brokenImages.has(imageKey) ? 'initial' : icon.kind;
    let content: TemplateResult;
    if (icon.kind === 'image' && kind === 'image') {
      content = html`<img
        src=${icon.src}
        alt=""
        @error=${() => (this.brokenImages = this.with(this.brokenImages, imageKey, true))}
      />`;
    } else if (icon.kind === 'class') {
      // The class string is plugin data: bound as an attribute value (text), never as markup.
      content = html`<span class=${icon.className}></span>`;
    } else {
      content = html`<span class="initial">${initialOf(name)}</span>`;
    }
    return html`<span class="icon" part="icon" aria-hidden="true" data-kind=${kind}>${content}</span>`;
  }

  /** The enable/disable switch (installed plugins only). */
  private renderSwitch(plugin: ManagedPlugin, busy: boolean) {
    const { name, enabled } = plugin;
    return html`<button
      type="button"
      role="switch"
      part="switch"
      aria-checked=${enabled ? 'true' : 'false'}
      aria-label="Enable ${name}"
      title=${enabled ? 'Enabled' : 'Disabled'}
      ?disabled=${busy}
      @click=${() => this.toggle(plugin)}
    ></button>`;
  }

  /** The restart notice of a plugin whose running version the launcher told: what runs, what waits. */
  private runningNotice(plugin: ManagedPlugin, installed: string, running: string): string {
    if (running !== installed) return `Version ${installed} is installed; ${running} runs until the launcher restarts.`;
    // Same version: a reinstall (repair) waits, unless only the switch changed.
    const switched = plugin.status === 'active' ? !plugin.enabled : plugin.status === 'disabled' && plugin.enabled;
    return switched ? 'Restart the launcher to apply' : `Version ${installed} was installed again; the launcher runs the copy it loaded until it restarts.`;
  }

  private renderCard(plugin: ManagedPlugin, key: string, launcherBusy: boolean) {
    const { id, name, status, hasRollback, manifest, signerRevoked, dev } = plugin;
    const rollbackRefused = hasRollback && plugin.rollbackSignerRevoked === true;
    const store = dev === undefined ? storeRecordOf(plugin) : undefined;
    const confirming = this.confirming.has(id);
    const expanded = this.expanded.has(id);
    const updates = this.updates;
    const progress = updates?.progressOf(id);
    const busy = launcherBusy || progress?.phase === 'installing' || progress?.phase === 'consent' || progress?.phase === 'rolling-back';
    // A version written by an update or rollback of this page, or anything the backend reports as
    // not yet loaded (`restartPending`, which survives a reload of the page), runs only after the
    // restart: the card shows it as waiting, never as the status ("Active") of what runs now.
    const pending = updates?.pendingRestart(id);
    const waiting = pending !== undefined || plugin.restartPending === true;
    const installed = pending?.version ?? plugin.version;
    // What runs now, when the launcher says so: the card shows it until the restart.
    const running = waiting && dev === undefined && Object.hasOwn(this.loadedVersions, id) ? this.loadedVersions[id] : undefined;
    const version = running ?? installed;
    // A dev plugin runs what its dev server serves: no restart applies anything to it.
    const restart = dev === undefined && (waiting || needsRestart(plugin));
    const unavailable = dev?.problem !== undefined;
    const statusKey = unavailable ? 'unavailable' : waiting ? 'pending-restart' : status;
    const statusLabel = unavailable
      ? 'Unavailable'
      : waiting
        ? 'Restart to apply'
        : ((STATUS_LABEL as Readonly<Record<string, string>>)[status] ?? String(status));
    const update = dev === undefined ? this.offeredUpdate(plugin) : undefined;
    const failure = progress?.phase === 'failed' ? progress : undefined;
    return html`<li class="card" part="card" data-plugin-id=${id} aria-labelledby="${key}-name" aria-busy=${busy ? 'true' : 'false'}>
      <div class="head">
        ${this.renderIcon(plugin)}
        <div class="title">
          <h2 id="${key}-name" part="name">${name}</h2>
          <span class="version" part="version">v${version}</span>
          <span class="status" part="status" data-status=${statusKey}>${statusLabel}</span>
          ${signerRevoked === true ? html`<span class="revoked" part="revoked" title=${REVOKED_TITLE}>Signing key revoked</span>` : nothing}
          ${dev ? html`<span class="dev-badge" part="dev-badge" title=${`Served by a running dev server (pluginctl dev) at ${dev.url}`}>dev</span>` : nothing}
        </div>
        ${dev ? nothing : this.renderSwitch(plugin, busy)}
      </div>
      ${
        restart
          ? html`<div class="notice" part="restart-notice">
            <span role="status"
              >${
                running !== undefined
                  ? this.runningNotice(plugin, installed, running)
                  : pending
                    ? this.loadedUnknown.has(id)
                      ? `Version ${pending.version} is installed; it runs after the launcher restarts.`
                      : `Version ${pending.version} is installed; ${pending.loadedVersion} runs until the launcher restarts.`
                    : 'Restart the launcher to apply'
              }${this.restartError !== null ? html`<br /><span class="problem">Restart failed: ${this.restartError}</span>` : nothing}</span
            >
            <button type="button" part="restart-button" ?disabled=${busy} @click=${() => this.restart(id)}>
              ${waiting ? 'Restart to apply' : 'Restart'}
            </button>
          </div>`
          : nothing
      }
      ${update ? this.renderUpdate(plugin, update, key, busy) : nothing}
      ${
        failure
          ? html`<p class="problem" part="update-error" role="alert">
            ${failure.action === 'update' ? 'The update failed' : 'Rolling back failed'}: ${failure.message}
          </p>`
          : nothing
      }
      ${
        dev
          ? html`<p class="source-note" part="dev-note">Served by the dev server at <span class="mono">${dev.url}</span>; its frame is replaced after each rebuild.</p>
            ${dev.problem !== undefined ? html`<p class="problem" part="dev-problem" role="alert">${dev.problem}</p>` : nothing}`
          : store?.source
            ? html`<p class="source-note" part="store-source" title=${store.source}>From the store at ${storeHost(store.source)}</p>`
            : updates && !store
              ? html`<p class="source-note" part="source-note">Installed from a file: it is not checked for updates.</p>`
              : nothing
      }
      ${rollbackRefused && dev === undefined ? html`<p class="source-note" part="rollback-note">${ROLLBACK_REFUSED}</p>` : nothing}
      <div class="actions" part="actions">
        <button
          type="button"
          part="details-button"
          aria-expanded=${expanded ? 'true' : 'false'}
          aria-controls="${key}-details"
          @click=${() => (this.expanded = this.with(this.expanded, id, !expanded))}
        >
          ${expanded ? 'Hide details' : 'Details'}
        </button>
        <div class="end">
          ${
            hasRollback && !rollbackRefused && dev === undefined
              ? html`<button
                type="button"
                part="rollback-button"
                ?disabled=${busy}
                @click=${() => this.rollback(plugin)}
              >
                ${progress?.phase === 'rolling-back' ? 'Rolling back…' : 'Roll back'}
              </button>`
              : nothing
          }
          ${
            dev
              ? nothing
              : confirming
                ? html`<span role="group" aria-label="Uninstall ${name}?" @keydown=${(event: KeyboardEvent) => this.onConfirmKeydown(event, id)}>
                <button type="button" class="confirm" part="confirm-uninstall-button" ?disabled=${busy} @click=${() => this.confirmUninstall(id)}>
                  Confirm uninstall
                </button>
                <button type="button" part="cancel-uninstall-button" @click=${() => this.cancelUninstall(id)}>Cancel</button>
              </span>`
                : html`<button type="button" part="uninstall-button" ?disabled=${busy} @click=${() => this.askUninstall(id)}>
                Uninstall
              </button>`
          }
        </div>
      </div>
      <div class="details" part="details" id="${key}-details" ?hidden=${!expanded}>
        ${expanded ? this.renderDetails(plugin, manifest) : nothing}
      </div>
    </li>`;
  }

  private renderDetails(plugin: ManagedPlugin, manifest: PluginManifest | undefined) {
    if (!manifest) {
      return html`<p>Plugin id <span class="mono">${plugin.id}</span></p>
        <p>The permissions of this plugin are not available.</p>`;
    }
    return html`${manifest.description ? html`<p>${manifest.description}</p>` : nothing}
      <p>
        Plugin id <span class="mono">${plugin.id}</span>${manifest.author ? html` · by ${manifest.author}` : nothing}
      </p>
      <h3>Permissions</h3>
      <plugin-permission-list .permissions=${manifest.permissions ?? []} render-mode=${manifest.render ?? nothing}></plugin-permission-list>`;
  }
}

declare global {
  interface HTMLElementEventMap {
    'plugin-toggle': CustomEvent<PluginToggleDetail>;
    'plugin-rollback': CustomEvent<PluginIdDetail>;
    'plugin-uninstall': CustomEvent<PluginIdDetail>;
    'plugin-restart': CustomEvent<PluginIdDetail>;
    'plugin-updated': CustomEvent<PluginVersionChangeDetail>;
    'plugin-rolled-back': CustomEvent<PluginVersionChangeDetail>;
    'plugin-update-failed': CustomEvent<PluginUpdateFailedDetail>;
  }
}
