import { ErrorCode, isPluginHostError, PluginHostError } from '../core/errors.js';
import type { SkippedPlugin } from '../core/dependency-order.js';
import type { PluginManifest } from '../core/manifest/manifest-types.js';
import { stoppedWhileLoading, type ActivationContext } from './activation-context.js';
import { addContributedMenuItems } from './contributed-menu.js';
import { declaresDependencies, dependencyRules } from './dependency-gate.js';
import { InlineActivation } from './inline-activation.js';
import { activateSandboxed } from './sandbox-activation.js';
import { loadOnce } from '../load-once.js';

// Loaded with the first plugin that has an icon theme: most launchers never load it.
const loadIconTheme = loadOnce(() => import('./icon-theme.js'));

/** What `PluginHost.start` did. */
export interface StartReport {
  readonly activated: readonly string[];
  readonly skipped: readonly SkippedPlugin[];
  readonly failed: readonly FailedPlugin[];
}

/** A plugin that `PluginHost.start` could not activate, with why. */
export interface FailedPlugin {
  readonly pluginId: string;
  readonly message: string;
  /** The stable code of the failure, for example `PLUGIN_TIMEOUT` or `PLUGIN_LOAD_FAILED`. */
  readonly code: ErrorCode;
}

/**
 * Activates plugins: all the backend's active ones at start, in dependency order, or one by id.
 * Each is registered as loading at once, then its theme, fonts and page are loaded and it is
 * connected in its sandboxed frame or mounted inline.
 */
export class PluginActivation {
  private readonly inline: InlineActivation;

  constructor(private readonly context: ActivationContext) {
    this.inline = new InlineActivation(context);
  }

  /** The plugin that owns the shared window's API (the last inline plugin loaded). */
  get inlineOwnerId(): string | undefined {
    return this.inline.ownerId;
  }

  /** See `PluginHost.start`. */
  async start(): Promise<StartReport> {
    const { installed, sinks } = this.context;
    const listedPages = await installed.refresh(true);
    const failed: FailedPlugin[] = [];
    const pages = new Map<string, Promise<string>>();
    const read = await Promise.all(
      [...installed.byId.values()]
        .filter((entry) => entry.status === 'active')
        .map(async (plugin) => {
          try {
            const manifest = await this.context.files.manifest(plugin.id, plugin.manifest);
            // The list's page is the one of this manifest (the backend read both together). Else
            // each page is fetched as soon as its manifest is in, while the plan is made: a frame
            // then starts when its own page is in. A page for a plugin the plan skips is never used.
            const frontend = manifest.entry?.frontend;
            const page = listedPages.get(plugin.id);
            if (frontend !== undefined)
              pages.set(manifest.id, typeof page === 'string' ? Promise.resolve(page) : handled(this.context.files.text(manifest.id, frontend)));
            return manifest;
          } catch (error) {
            failed.push({ pluginId: plugin.id, message: messageOf(error), code: codeOf(error) });
            sinks.events.emit({ type: 'load-failed', pluginId: plugin.id, message: messageOf(error) });
            return undefined;
          }
        }),
    );
    const candidates = read.filter((manifest): manifest is PluginManifest => manifest?.entry?.frontend !== undefined);
    const { order, skipped } = await this.plan(candidates);
    for (const entry of skipped) {
      console.warn(`[plugins] ${entry.message}`);
      sinks.events.emit({ type: 'skipped', pluginId: entry.id, message: entry.message });
    }
    // Each activation registers its plugin before its first await, so `running` (and with it the
    // order of hook layers) follows the plan even though the frames load in parallel.
    const byId = new Map(candidates.map((manifest) => [manifest.id, manifest]));
    const outcomes = order.map((id) => this.activateManifest(byId.get(id) as PluginManifest, pages.get(id)));
    const activated: string[] = [];
    (await Promise.allSettled(outcomes)).forEach((outcome, index) => {
      const id = order[index] as string;
      if (outcome.status === 'fulfilled') activated.push(id);
      else failed.push({ pluginId: id, message: messageOf(outcome.reason), code: codeOf(outcome.reason) });
    });
    return { activated, skipped, failed };
  }

  /** See `PluginHost.activate`. */
  async activate(id: string): Promise<void> {
    const { running, installed } = this.context;
    if (running.has(id)) return;
    await installed.refresh();
    const listed = installed.get(id);
    if (!listed) throw new PluginHostError(ErrorCode.PLUGIN_NOT_FOUND, `${id} is not installed; install it before activating it`);
    if (listed.status !== 'active')
      throw new PluginHostError(ErrorCode.PLUGIN_NOT_ENABLED, `${id} is not enabled (status ${listed.status}); enable it before activating it`, {
        status: listed.status,
      });
    const manifest = await this.context.files.manifest(id, listed.manifest);
    const missing = declaresDependencies(manifest) ? (await dependencyRules(id)).unmetDependency(manifest, running.byId, installed.byId) : undefined;
    if (missing) {
      this.context.sinks.events.emit({ type: 'skipped', pluginId: id, message: missing });
      throw new PluginHostError(ErrorCode.DEPENDENCY_MISSING, missing);
    }
    await this.activateManifest(manifest);
  }

  /**
   * The activation order of a start and the plugins it skips. Without any declared dependency the
   * order is the backend's list as it is (what the plan would give: the candidates' ids are unique,
   * each manifest having been checked against the id it was read for), and the dependency rules
   * are not loaded.
   */
  private async plan(candidates: readonly PluginManifest[]): Promise<{ order: string[]; skipped: SkippedPlugin[] }> {
    const dependant = candidates.find(declaresDependencies);
    if (dependant === undefined) return { order: candidates.map((manifest) => manifest.id), skipped: [] };
    const rules = await dependencyRules(dependant.id);
    return rules.planStart(
      candidates.map(({ id, version, dependencies }) => ({ id, version, dependencies })),
      this.context.installed.byId,
    );
  }

  /** Registers a loading plugin at once (keeping activation order), then loads it (its page from `page` when it is already being fetched). */
  private async activateManifest(manifest: PluginManifest, page?: Promise<string>): Promise<void> {
    const { running, sinks, services } = this.context;
    const id = manifest.id;
    const frontend = manifest.entry?.frontend;
    if (frontend === undefined) throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, `${id} has no entry.frontend; only such plugins are activated`);
    const { plugin, connected, notConnected } = running.register(manifest);
    // Inline plugins take their turn now, in activation order, whatever their files' load times.
    const inlineTurn = plugin.mode === 'inline' ? this.inline.takeTurn() : undefined;
    try {
      await this.applyAppearance(manifest);
      const html = await (page ?? this.context.files.text(id, frontend));
      connected(inlineTurn ? await this.inline.activate(plugin, html, frontend, inlineTurn) : await activateSandboxed(this.context, plugin, html, frontend));
      if (!running.isCurrent(plugin)) throw stoppedWhileLoading(id);
      plugin.state = 'active';
      plugin.settle(true);
      addContributedMenuItems(manifest, services.menu, services.ui);
      sinks.events.emit({ type: 'activated', pluginId: id });
      inlineTurn?.done();
    } catch (error) {
      inlineTurn?.done();
      const message = messageOf(error);
      notConnected(new PluginHostError(ErrorCode.PLUGIN_NOT_RUNNING, `${id} is not running: ${message}`, { cause: codeOf(error) }));
      plugin.state = 'failed';
      plugin.settle(false);
      if (running.isCurrent(plugin)) {
        sinks.reporter.report(id, manifest.version, 'plugin_load_failed');
        sinks.events.emit({ type: 'load-failed', pluginId: id, message });
        running.deactivate(id);
      }
      throw error;
    }
  }

  /** Injects the plugin's theme (`entry.theme`), icon theme (`contributes.iconTheme`) and font links (`contributes.fontLinks`). */
  private async applyAppearance(manifest: PluginManifest): Promise<void> {
    const { files, services } = this.context;
    const id = manifest.id;
    if (manifest.entry?.theme !== undefined) services.theme.injectTheme(id, await files.text(id, manifest.entry.theme));
    if (manifest.contributes?.iconTheme !== undefined) await (await loadIconTheme()).applyIconTheme(manifest, files, services.theme);
    if (manifest.contributes?.fontLinks) {
      // A package path is served from the plugin's files; anything else must be an https URL.
      const filesBase = files.base(id);
      const links = manifest.contributes.fontLinks.map((link) =>
        /^https:/i.test(link) ? link : `${filesBase}/${link.split('/').map(encodeURIComponent).join('/')}`,
      );
      services.theme.injectFontLinks(id, links, new URL(filesBase).origin);
    }
  }
}

/** `promise`, marked handled: one that nobody awaits (a skipped plugin's page) must not surface as an unhandled rejection. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function codeOf(error: unknown): ErrorCode {
  return isPluginHostError(error) ? error.code : ErrorCode.PLUGIN_LOAD_FAILED;
}
