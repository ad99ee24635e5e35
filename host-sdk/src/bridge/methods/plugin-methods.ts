import { isValidPluginId } from '../../core/manifest/plugin-id.js';
import { pluginMethodUnavailable } from '../../core/bridge/bridge-errors.js';
import { BridgeFailure } from '../../host/backend-client.js';
import { withTimeout } from '../../host/with-timeout.js';
import type { BridgeHandler } from '../lazy-handlers.js';
import { badArgument, stringArgument } from './arguments.js';

const METHOD_NAME = /^[A-Za-z_$][\w$.:-]{0,127}$/;

function methodName(method: string, value: unknown, what: string): string {
  if (typeof value !== 'string' || !METHOD_NAME.test(value)) throw badArgument(method, `"${what}" must be a name of letters, digits, _ $ . : - (at most 128)`);
  return value;
}

/** `registerMethod`, `callPlugin`, `registerHook`: cross-plugin calls relayed through the host. */
export const handlers = {
  registerMethod: ({ plugin, services }, args) => {
    services.methods.register(plugin.id, methodName('registerMethod', args[0], 'method'));
    return null;
  },
  callPlugin: async ({ services }, args) => {
    const target = stringArgument('callPlugin', args, 0, 'pluginId');
    const method = methodName('callPlugin', args[1], 'method');
    if (!isValidPluginId(target) || !services.isInstalled(target)) throw new BridgeFailure(pluginMethodUnavailable(target, method, 'not-installed'));
    // A target still loading (frames load in parallel at start) is waited for; its own connect
    // timeout bounds the wait.
    const loading = services.active(target);
    if (loading?.state === 'loading') await loading.ready;
    const active = services.active(target);
    if (active?.state !== 'active') throw new BridgeFailure(pluginMethodUnavailable(target, method, 'inactive'));
    if (!services.methods.has(target, method)) throw new BridgeFailure(pluginMethodUnavailable(target, method, 'no-such-method'));
    const result = await withTimeout(
      active.guest.invokeMethod(method, args.slice(2)),
      services.timeouts.crossPluginCallMs,
      `${target} did not answer ${method} within ${services.timeouts.crossPluginCallMs} ms`,
    );
    if (!result.ok) throw new BridgeFailure(result.error);
    return result.value;
  },
  registerHook: ({ plugin, services }, args) => {
    const method = methodName('registerHook', args[0], 'method');
    const hookId = stringArgument('registerHook', args, 1, 'hookId');
    if (!services.hooks.isHookable(method)) throw badArgument('registerHook', `"${method}" is not a hookable launcher method`);
    services.hooks.register(method, { pluginId: plugin.id, hookId });
    return null;
  },
} satisfies Readonly<Record<string, BridgeHandler>>;
