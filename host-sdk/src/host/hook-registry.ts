import { ErrorCode, PluginHostError } from '../core/errors.js';
import { randomId } from './random-id.js';

/** A launcher method a vendor makes hookable. */
export interface HookableMethod {
  /** The name plugins pass to `registerHook`, e.g. `launchGame`. */
  readonly name: string;
  /** What it does, for the bridge reference and the harness. */
  readonly description: string;
}

/** One registered hook. */
export interface HookRegistration {
  readonly pluginId: string;
  readonly hookId: string;
}

/** One layer of a hook chain as the runner sees it. */
export interface HookLayerResult {
  readonly args: readonly unknown[];
  readonly result: unknown;
  readonly prevented: boolean;
}

/** Runs a plugin's hook handler; supplied by the host (it calls the plugin's frame). */
export type HookLayerRunner = (
  registration: HookRegistration,
  invocation: { invocationId: string; method: string; args: readonly unknown[] },
) => Promise<HookLayerResult>;

interface Continuation {
  readonly owner: string;
  readonly next: (args: readonly unknown[], prevented: boolean) => Promise<{ result: unknown; prevented: boolean }>;
  used: boolean;
  /** What the inner layers produced, once `next()` finished. */
  inner?: { result: unknown };
}

/**
 * Hooks around hookable launcher methods, run as onion middleware (outermost: the plugin activated
 * first; within a plugin, registration order): each
 * layer may change `ctx.args` before `next()`, `ctx.result` after it, and call `ctx.prevent()`
 * so the default implementation does not run. A layer whose plugin fails or does not answer is
 * skipped (the chain goes on as if it were not there), so one broken plugin cannot block the
 * launcher.
 */
export class HookRegistry {
  private readonly hooks = new Map<string, HookRegistration[]>();
  private readonly continuations = new Map<string, Continuation>();
  private readonly hookable: ReadonlyMap<string, HookableMethod>;

  constructor(
    hookable: readonly HookableMethod[],
    private readonly runLayer: HookLayerRunner,
    private readonly onLayerFailure: (registration: HookRegistration, error: unknown) => void = () => {},
    private readonly rank: (pluginId: string) => number = () => 0,
  ) {
    this.hookable = new Map(hookable.map((method) => [method.name, method]));
  }

  /** The declared hookable methods. */
  declared(): HookableMethod[] {
    return [...this.hookable.values()];
  }

  isHookable(method: string): boolean {
    return this.hookable.has(method);
  }

  register(method: string, registration: HookRegistration): void {
    const list = this.hooks.get(method) ?? [];
    list.push(registration);
    this.hooks.set(method, list);
  }

  /** Removes every hook of `pluginId` (deactivation). */
  removeAll(pluginId: string): void {
    for (const [method, list] of this.hooks)
      this.hooks.set(
        method,
        list.filter((hook) => hook.pluginId !== pluginId),
      );
  }

  /**
   * Hooks around `method`, outermost first: by the plugins' activation order (dependencies wrap
   * their dependants), then by registration order within a plugin. The sort is stable.
   */
  list(method: string): readonly HookRegistration[] {
    return [...(this.hooks.get(method) ?? [])].sort((a, b) => this.rank(a.pluginId) - this.rank(b.pluginId));
  }

  /**
   * Runs `method` through its hooks and then `implementation` (unless a layer prevented it).
   *
   * @returns the result after every layer had its say (undefined when prevented and no layer set one).
   */
  async run(method: string, args: readonly unknown[], implementation: (...args: unknown[]) => unknown): Promise<unknown> {
    const chain = this.list(method);
    let prevented = false;
    const layer = async (index: number, layerArgs: readonly unknown[]): Promise<{ result: unknown; prevented: boolean }> => {
      const registration = chain[index];
      if (!registration) {
        return prevented ? { result: undefined, prevented } : { result: await implementation(...layerArgs), prevented };
      }
      const invocationId = randomId();
      const continuation: Continuation = {
        owner: registration.pluginId,
        next: async (nextArgs, preventedBefore) => {
          if (preventedBefore) prevented = true;
          const inner = await layer(index + 1, nextArgs);
          continuation.inner = { result: inner.result };
          return inner;
        },
        used: false,
      };
      this.continuations.set(invocationId, continuation);
      try {
        const outcome = await this.runLayer(registration, { invocationId, method, args: layerArgs });
        if (outcome.prevented) prevented = true;
        return { result: outcome.result, prevented };
      } catch (error) {
        this.onLayerFailure(registration, error);
        // The broken layer is skipped; if it already ran the inner layers, their result stands.
        if (continuation.used) return { result: continuation.inner?.result, prevented };
        return layer(index + 1, layerArgs);
      } finally {
        this.continuations.delete(invocationId);
      }
    };
    return (await layer(0, args)).result;
  }

  /**
   * Continues a chain from inside a layer (`await next()` in the plugin's handler). Only the
   * plugin whose layer is running may continue it, and only once.
   *
   * @throws PluginHostError `INVALID_ARGUMENT` when the invocation is unknown, not the caller's, or already continued.
   */
  async next(callerId: string, invocationId: string, args: readonly unknown[], prevented = false): Promise<{ result: unknown; prevented: boolean }> {
    const continuation = this.continuations.get(invocationId);
    if (!continuation || continuation.owner !== callerId)
      throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, 'No hook invocation with this id is running for this plugin');
    if (continuation.used) throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, 'next() was already called for this hook invocation');
    continuation.used = true;
    return continuation.next(args, prevented);
  }
}
