/** `registerMethod` / `invokeMethod`: functions other plugins call stay here, the host knows names. */
import type { WireResult } from '../core/bridge/protocol.js';
import type { PluginMethod } from './plugin-api.js';
import type { HostAccess } from './host-session.js';
import { requireArgument } from './bridge-error.js';
import type { CaughtErrors } from './error-reporter.js';
import { argumentList, isName } from './guards.js';
import { answerFor, errorResult } from './wire-result.js';

/** The methods this plugin registered. */
export interface MethodRegistry {
  /** `__PLUGIN_API__.registerMethod`. */
  register(name: string, fn: PluginMethod): Promise<void>;
  /** `GuestMethods.invokeMethod`: runs a registered method and answers a WireResult. */
  invoke(name: unknown, args: unknown): Promise<WireResult>;
}

/**
 * A registry whose functions live only in this closure. What a method throws answers the caller
 * and is reported to `errors` as this plugin's error too.
 */
export function createMethodRegistry(host: HostAccess, errors: CaughtErrors): MethodRegistry {
  const methods = new Map<string, PluginMethod>();

  return {
    async register(name, fn) {
      requireArgument(isName(name), 'registerMethod needs a method name');
      requireArgument(typeof fn === 'function', 'registerMethod needs a function');
      // Kept before the host hears of it, so a call arriving right after registration finds it.
      const previous = methods.get(name);
      methods.set(name, fn);
      try {
        await host('callDirect', 'registerMethod', [name]);
      } catch (error) {
        if (methods.get(name) === fn) {
          if (previous) methods.set(name, previous);
          else methods.delete(name);
        }
        throw error;
      }
    },

    async invoke(name, args) {
      const fn = isName(name) ? methods.get(name) : undefined;
      if (!fn) return errorResult(`Method not registered: ${isName(name) ? name : '(not a name)'}`);
      return answerFor(() => fn(...argumentList(args)), `The result of ${name}`, errors, `registerMethod('${name}')`);
    },
  };
}
