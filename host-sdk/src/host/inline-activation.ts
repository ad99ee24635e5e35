import { ErrorCode, PluginHostError } from '../core/errors.js';
import type { GuestMethods } from '../core/bridge/protocol.js';
import { containerFor, stoppedWhileLoading, type ActivationContext } from './activation-context.js';
import { dependenciesSettled } from './dependency-gate.js';
import { guestReportsFor } from './guest-reports.js';
import { hostMethodsFor } from './host-methods.js';
import type { RunningPlugin } from './running-plugins.js';

/**
 * Loads what only inline plugins need (`inline-runtime.ts`: the guest API they share the
 * launcher's window with, and the inline mount): only a launcher that activates one loads it.
 *
 * @throws PluginHostError `PLUGIN_LOAD_FAILED` naming the plugin when it cannot be loaded.
 */
function loadInlineRuntime(pluginId: string): Promise<typeof import('./inline-runtime.js')> {
  return import('./inline-runtime.js').catch((error: unknown) => {
    throw new PluginHostError(
      ErrorCode.PLUGIN_LOAD_FAILED,
      `${pluginId} renders inline, but the launcher could not load the inline plugin runtime (${error instanceof Error ? error.message : String(error)}); reload the launcher and retry`,
    );
  });
}

/** A place in the line of inline mounts: wait for `previous`, call `done` when mounted (or failed). */
export interface InlineTurn {
  readonly previous: Promise<void>;
  done(): void;
}

/**
 * Mounts inline plugins one after another, in activation order, after the plugins each depends
 * on: the shared window's `__PLUGIN_API__` then belongs to the last inline plugin in activation
 * order (specification), whatever their files' load times.
 */
export class InlineActivation {
  private queue: Promise<void> = Promise.resolve();
  private owner: string | undefined;

  constructor(private readonly context: ActivationContext) {}

  /** The plugin that owns the shared window's API (the last inline plugin loaded). */
  get ownerId(): string | undefined {
    return this.owner;
  }

  /** Takes the next place in the line; call it when activation starts, so the line follows activation order. */
  takeTurn(): InlineTurn {
    const previous = this.queue;
    let done: () => void = () => {};
    this.queue = new Promise<void>((resolve) => (done = resolve));
    return { previous, done };
  }

  /**
   * Mounts `plugin`'s page into its inline container once `turn` comes, and resolves with its guest.
   *
   * @throws PluginHostError `PLUGIN_LOAD_FAILED` when the launcher gave no inline container, `PLUGIN_NOT_RUNNING` when the plugin was stopped meanwhile.
   */
  async activate(plugin: RunningPlugin, html: string, entryPath: string, turn: InlineTurn): Promise<GuestMethods> {
    const { context } = this;
    const id = plugin.id;
    if (!context.inlineContainer)
      throw new PluginHostError(
        ErrorCode.PLUGIN_LOAD_FAILED,
        `${id} renders inline, but the launcher gave the host no inlineContainer; pass one to the PluginHost options`,
      );
    const container = containerFor(context.inlineContainer, id);
    // The guest runtime of inline plugins loads with the first of them, while it waits its turn.
    const runtime = loadInlineRuntime(id);
    runtime.catch(() => undefined);
    await turn.previous;
    await dependenciesSettled(plugin.manifest, context.running.byId);
    const { createInlineGuest, mountInlinePlugin } = await runtime;
    if (!context.running.isCurrent(plugin)) throw stoppedWhileLoading(id);
    const reports = guestReportsFor(plugin, context.sinks);
    const methods = hostMethodsFor({ id, manifest: plugin.manifest }, null, context.services, context.index, reports);
    // The shared window's API belongs to the last inline plugin loaded (specification).
    this.owner = id;
    const guest = createInlineGuest(context.document.defaultView ?? window, methods, id);
    const { cspNonce } = context;
    plugin.inline = mountInlinePlugin(container, {
      html,
      pluginFilesBase: context.files.base(id),
      entryPath,
      pluginId: id,
      onLoadFailed: (detail) => reports.loadFailure(detail.resource),
      ...(cspNonce ? { cspNonce } : {}),
    });
    await plugin.inline.ready;
    return guest;
  }
}
