/**
 * Handlers that load on their first call. The bridge contract (`core/bridge/bridge-contract.ts`)
 * names every method with its permission, signature and group; the code that runs a method lives
 * in its group's module (`methods/*-methods.ts`), which a launcher page loads only when a plugin
 * first calls one of that group's methods, so the page starts with the table alone.
 */
import { PluginHostError } from '../core/errors.js';
import { BridgeFailure } from '../host/backend-client.js';
import { loadOnce } from '../load-once.js';
import type { BridgeMethod } from './bridge-method.js';
import { notActive } from './dispatch.js';

/** What runs a bridge call: the `handler` of a table entry. */
export type BridgeHandler = BridgeMethod['handler'];

/** A group module: its handlers by method name. */
export interface BridgeHandlerGroup {
  readonly handlers: Readonly<Record<string, BridgeHandler>>;
}

/**
 * Returns, for a method name of the group, a handler that loads the group once (every call that
 * arrives while it loads waits for the same load) and then runs the method's handler.
 *
 * - A load that fails rejects every call waiting for it with `INTERNAL_ERROR` naming the method
 *   (the cause goes to the launcher's console, not to the plugin); the next call tries again.
 * - A plugin deactivated while the group loaded has its call refused like any call of an inactive
 *   plugin: a handler never runs for a plugin that is gone (it would register methods, hooks or
 *   streams nobody removes).
 *
 * @param group - the group's name, for the console message.
 * @param load - imports the group module (`() => import('./methods/ui-methods.js')`).
 * @example
 * ```ts
 * const ui = lazyHandlers('ui', () => import('./methods/ui-methods.js'));
 * bridgeMethod({ name: 'showToast', permission: 'ui:toast', signature: signature<[message: string]>(), handler: ui('showToast') });
 * ```
 */
export function lazyHandlers<Group extends BridgeHandlerGroup>(
  group: string,
  load: () => Promise<Group>,
): (name: keyof Group['handlers'] & string) => BridgeHandler {
  const loaded = loadOnce(load);
  // Once loaded, the module is kept here: a call then runs its handler without waiting a turn
  // for the load's promise (the bridge's hot path).
  let ready: Group | undefined;
  return (name) => async (context, args) => {
    let module: Group;
    try {
      ready ??= await loaded();
      module = ready;
    } catch (error) {
      console.error(`[plugins] the bridge methods of group ${group} could not be loaded`, error);
      throw new PluginHostError(
        'INTERNAL_ERROR',
        `${name}: the launcher could not load the code of this method; reload the launcher and retry (the cause is in the launcher's console)`,
      );
    }
    if (!context.services.active(context.plugin.id)) throw new BridgeFailure(notActive(context.plugin.id), 'PLUGIN_NOT_RUNNING');
    const handler = module.handlers[name];
    if (handler === undefined) throw new PluginHostError('INTERNAL_ERROR', `${name}: the bridge method group ${group} has no handler for it`);
    return handler(context, args);
  };
}
