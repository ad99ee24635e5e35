import type { LibraryBackend } from './library-backend.js';
import type { LaunchArguments, LaunchRecord, LibraryInstance } from './library-types.js';

/** What the launch flow needs of the plugin host. */
export interface HookRunner {
  runHookable(method: string, args: readonly unknown[], implementation: (...args: unknown[]) => unknown): Promise<unknown>;
}

/** The hookable launcher method plugins hook with `registerHook('launchGame', ...)`. */
export const LAUNCH_METHOD = 'launchGame';

/** The arguments a launch of `instance` starts with, before the hooks. */
export function launchArgumentsFor(instance: LibraryInstance): LaunchArguments {
  return {
    instanceId: instance.id,
    instance: instance.name,
    memory: instance.maxMemory,
    ...(instance.gameVersion ? { gameVersion: instance.gameVersion } : {}),
    ...(instance.loader ? { loader: instance.loader } : {}),
    javaArgs: ['-XX:+UseG1GC'],
    gameArgs: [],
  };
}

/**
 * The reason a preventing hook left in `ctx.result`: a string, or an object's string `reason`
 * (`ctx.result = {reason: 'Back up first'}; ctx.prevent()`).
 */
export function preventionReason(result: unknown): string | undefined {
  if (typeof result === 'string' && result.trim() !== '') return result;
  if (typeof result === 'object' && result !== null && typeof (result as { reason?: unknown }).reason === 'string')
    return (result as { reason: string }).reason;
  return undefined;
}

/**
 * Launches an instance through the plugins' `launchGame` hooks (onion order): hooks may change the
 * arguments before `next()` or prevent the launch; the launch itself (the backend's simulated game)
 * runs with the arguments the hooks passed on. A prevented launch is logged with the hook's reason.
 * An error of the launch itself is thrown, never taken for a prevention.
 */
export async function launchThroughHooks(host: HookRunner, backend: LibraryBackend, instance: LibraryInstance): Promise<LaunchRecord> {
  const requested = launchArgumentsFor(instance);
  let launched: { record: LaunchRecord } | { error: unknown } | undefined;
  const result = await host.runHookable(LAUNCH_METHOD, [requested], async (...args: unknown[]) => {
    const final = args[0];
    try {
      const record = await backend.launch(instance.id, { arguments: typeof final === 'object' && final !== null ? (final as Record<string, unknown>) : {} });
      launched = { record };
      return `Launched ${instance.name}`;
    } catch (error) {
      launched = { error };
      throw error;
    }
  });
  if (launched && 'record' in launched) return launched.record;
  if (launched) throw launched.error;
  const reason = preventionReason(result);
  return backend.launch(instance.id, { arguments: { ...requested }, prevented: reason === undefined ? {} : { reason } });
}
