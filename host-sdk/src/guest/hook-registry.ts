/** `registerHook` / `runHook`: the guest layers of the host's onion of launcher-method hooks. */
import type { HookOutcome, WireResult } from '../core/bridge/protocol.js';
import type { HookContext, HookHandler } from './plugin-api.js';
import type { HostAccess } from './host-session.js';
import { bridgeError, requireArgument } from './bridge-error.js';
import type { CaughtErrors } from './error-reporter.js';
import { argumentList, isName, isRecord } from './guards.js';
import { answerFor, errorResult } from './wire-result.js';

/** The hook handlers this plugin registered. */
export interface HookRegistry {
  /** `__PLUGIN_API__.registerHook`. */
  register(method: string, handler: HookHandler): Promise<void>;
  /** `GuestMethods.runHook`: runs one handler as one layer of the chain. */
  run(invocation: unknown): Promise<WireResult<HookOutcome>>;
}

/**
 * A registry whose handlers live only in this closure, keyed by generated hook ids. A handler that
 * fails is reported to `errors` (the host skips its layer without reporting it again).
 */
export function createHookRegistry(host: HostAccess, newId: () => string, errors: CaughtErrors): HookRegistry {
  const handlers = new Map<string, HookHandler>();

  return {
    async register(method, handler) {
      requireArgument(isName(method), 'registerHook needs a method name');
      requireArgument(typeof handler === 'function', 'registerHook needs a handler function');
      const hookId = newId();
      handlers.set(hookId, handler);
      try {
        await host('callDirect', 'registerHook', [method, hookId]);
      } catch (error) {
        handlers.delete(hookId);
        throw error;
      }
    },

    async run(invocation) {
      if (!isRecord(invocation)) return errorResult('Malformed hook invocation');
      const { invocationId, hookId, method } = invocation;
      const handler = typeof hookId === 'string' ? handlers.get(hookId) : undefined;
      if (!isName(invocationId) || !isName(method) || !handler) {
        return errorResult(`No hook registered with id ${String(hookId)}`);
      }
      let prevented = false;
      let nextCalled = false;
      const ctx: HookContext = {
        method,
        args: argumentList(invocation.args),
        result: undefined,
        prevent() {
          prevented = true;
        },
      };
      /** `next()`: the inner layers run in the host; it may be called once. */
      const next = async (): Promise<unknown> => {
        if (nextCalled) throw bridgeError('next() called more than once');
        nextCalled = true;
        // A handler may have replaced `ctx.args` with anything; only an array is an argument list.
        requireArgument(Array.isArray(ctx.args), 'ctx.args must be an array');
        // A prevent() before next() must already hold for the inner layers and the default implementation.
        const inner = await host('hookNext', invocationId, argumentList(ctx.args), prevented);
        ctx.result = isRecord(inner) ? inner.result : undefined;
        return ctx.result;
      };
      return answerFor(
        async (): Promise<HookOutcome> => {
          await handler(ctx, next);
          requireArgument(Array.isArray(ctx.args), 'ctx.args must be an array');
          return { args: argumentList(ctx.args), result: ctx.result, prevented };
        },
        `The outcome of the ${method} hook`,
        errors,
        `registerHook('${method}') handler`,
      );
    },
  };
}
