/** `registerHook` / `runHook`: the guest layers of the host's onion of launcher-method hooks. */
import type { HookOutcome, WireResult } from '../core/bridge/protocol.js';
import type { HookContext, HookHandler } from './plugin-api.js';
import type { HostAccess } from './host-session.js';
import { bridgeError } from './bridge-error.js';
import type { CaughtErrors } from './error-reporter.js';
import { callHostDirect } from './host-calls.js';
import { argumentList, isName, isRecord } from './guards.js';
import { errorResult, unwrapResult, valueResult } from './wire-result.js';

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

  /** `next()`: the inner layers run in the host; it may be called once. */
  function nextFor(invocationId: string, ctx: HookContext, state: { prevented: boolean }): () => Promise<unknown> {
    let called = false;
    return async () => {
      if (called) throw bridgeError('next() called more than once');
      called = true;
      if (!Array.isArray(ctx.args)) throw bridgeError('ctx.args must be an array', 'INVALID_ARGUMENT');
      const remote = await host();
      // A prevent() before next() must already hold for the inner layers and the default implementation.
      const inner = unwrapResult(await remote.hookNext(invocationId, [...argumentList(ctx.args)], state.prevented));
      ctx.result = isRecord(inner) ? inner.result : undefined;
      return ctx.result;
    };
  }

  return {
    async register(method, handler) {
      if (!isName(method)) throw bridgeError('registerHook needs a method name', 'INVALID_ARGUMENT');
      if (typeof handler !== 'function') throw bridgeError('registerHook needs a handler function', 'INVALID_ARGUMENT');
      const hookId = newId();
      handlers.set(hookId, handler);
      try {
        await callHostDirect(host, 'registerHook', [method, hookId]);
      } catch (error) {
        handlers.delete(hookId);
        throw error;
      }
    },

    async run(invocation) {
      if (!isRecord(invocation)) return errorResult(bridgeError('Malformed hook invocation'));
      const { invocationId, hookId, method } = invocation;
      const handler = typeof hookId === 'string' ? handlers.get(hookId) : undefined;
      if (!isName(invocationId) || !isName(method) || !handler) {
        return errorResult(bridgeError(`No hook registered with id ${String(hookId)}`));
      }
      const state = { prevented: false };
      const ctx: HookContext = {
        method,
        args: argumentList(invocation.args),
        result: undefined,
        prevent() {
          state.prevented = true;
        },
      };
      const source = `registerHook('${method}') handler`;
      const failed = (thrown: unknown): WireResult<never> => {
        errors.fromHandler(thrown, source);
        return errorResult(thrown);
      };
      try {
        await handler(ctx, nextFor(invocationId, ctx, state));
      } catch (error) {
        return failed(error);
      }
      // A handler may have replaced `ctx.args` with anything; only an array is an argument list.
      if (!Array.isArray(ctx.args)) return failed(bridgeError('ctx.args must be an array', 'INVALID_ARGUMENT'));
      const outcome: HookOutcome = { args: argumentList(ctx.args), result: ctx.result, prevented: state.prevented };
      const result = valueResult(outcome, `The outcome of the ${method} hook`);
      if (!result.ok) errors.fromHandler(result.error.message, source);
      return result;
    },
  };
}
