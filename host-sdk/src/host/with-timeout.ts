import { ErrorCode, PluginHostError } from '../core/errors.js';

/** Rejects with `PLUGIN_TIMEOUT` and `message` when `promise` (a plugin's answer) has not settled after `ms` milliseconds. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PluginHostError(ErrorCode.PLUGIN_TIMEOUT, message, { timeoutMs: ms })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
