import { ErrorCode, PluginHostError } from '../core/errors.js';
import type { HookOutcome, WireResult } from '../core/bridge/protocol.js';
import { BridgeFailure } from './backend-client.js';
import type { HostEvents } from './host-events.js';
import { HookRegistry, type HookableMethod } from './hook-registry.js';
import type { RunningPlugins } from './running-plugins.js';
import { withTimeout } from './with-timeout.js';

/** What {@link createHookRegistry} uses. */
export interface HookLayerOptions {
  readonly hookableMethods: readonly HookableMethod[];
  /** Gives the running plugins; called only while hooks run (the registry is built before them). */
  readonly running: () => RunningPlugins;
  readonly events: HostEvents;
  /** Time limit of one hook layer. */
  readonly timeoutMs: number;
}

/**
 * The host's hook registry: each layer runs in its plugin's frame, within the time limit, and the
 * layers are ordered by the plugins' activation order.
 */
export function createHookRegistry(options: HookLayerOptions): HookRegistry {
  return new HookRegistry(
    options.hookableMethods,
    (registration, invocation) => runHookLayer(options, registration.pluginId, { ...invocation, hookId: registration.hookId }),
    // A handler that threw was reported by its frame, with its stack; what is left is a layer that
    // timed out or whose plugin was not answering.
    (registration, error) => {
      if (!(error instanceof BridgeFailure))
        options.events.emit({
          type: 'runtime-error',
          pluginId: registration.pluginId,
          message: `Hook failed: ${error instanceof Error ? error.message : String(error)}`,
        });
    },
    // Activation order decides the layers, so the onion does not depend on which frame answered first.
    (pluginId) => options.running().ids().indexOf(pluginId),
  );
}

async function runHookLayer(
  options: HookLayerOptions,
  pluginId: string,
  invocation: { invocationId: string; method: string; args: readonly unknown[]; hookId: string },
): Promise<HookOutcome> {
  const plugin = options.running().get(pluginId);
  if (plugin?.state !== 'active') throw new PluginHostError(ErrorCode.PLUGIN_NOT_RUNNING, `${pluginId} is not answering`);
  const result: WireResult<HookOutcome> = await withTimeout(
    plugin.guest.runHook(invocation),
    options.timeoutMs,
    `${pluginId}'s hook did not finish within ${options.timeoutMs} ms`,
  );
  if (!result.ok) throw new BridgeFailure(result.error);
  return result.value;
}
