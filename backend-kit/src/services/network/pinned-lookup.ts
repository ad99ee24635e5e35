import type { LookupAddress, LookupOptions } from 'node:dns';
import type { ResolvedAddress } from './resolve-host.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that answers with addresses already checked by the guard and
 * never asks DNS again. This is what defeats DNS rebinding: a name that answered "public" to the
 * check cannot answer "127.0.0.1" to the connection, because there is no second question.
 * Node asks with `all: true` when it races address families (autoSelectFamily), so both forms
 * are answered.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return function lookupCheckedAddress(_hostname, options, callback) {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
    const first = wanted[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error('No checked address of the requested family');
      error.code = 'ENOTFOUND';
      process.nextTick(() => callback(error, []));
      return;
    }
    if (options.all === true)
      process.nextTick(() =>
        callback(
          null,
          wanted.map((entry) => ({ address: entry.address, family: entry.family })),
        ),
      );
    else process.nextTick(() => callback(null, first.address, first.family));
  };
}
