import { PluginHostError } from './core/errors.js';

/**
 * Takes the values a launcher's server handed to its page in a global (typically the local
 * backend's token and address, set by an inline script: `window.__MY_LAUNCHER_BOOT__ = {...}`) and
 * deletes that global before returning, so call it first thing, before the host starts: inline
 * plugins run in the launcher's window later and must not find the token (decisions 2).
 *
 * The values are returned as they were set, unchecked: read each with the type you expect
 * (`typeof boot.token === 'string'`). A missing global gives an empty object.
 *
 * @param globalName - The name of the global, for example `'__MY_LAUNCHER_BOOT__'`.
 * @param scope - Where the global lives; the page's `globalThis` by default (tests pass their own).
 * @throws PluginHostError `INVALID_ARGUMENT` when the global cannot be deleted (it was declared with
 *   `var` in a classic script) or does not hold an object. The global is deleted before the value
 *   is checked, so a wrong value is never left behind.
 */
export function takeBootValues(globalName: string, scope: object = globalThis): Readonly<Record<string, unknown>> {
  const holder = scope as Record<string, unknown>;
  const value = holder[globalName];
  // Reflect.deleteProperty answers false for a non-configurable property where `delete` throws a
  // bare TypeError in strict code; `in` also catches a value still reachable through the prototype.
  if (!Reflect.deleteProperty(holder, globalName) || globalName in holder) {
    throw new PluginHostError(
      'INVALID_ARGUMENT',
      `The page's ${globalName} could not be deleted, so the token it holds stays readable by inline plugins. Set it as a property (window.${globalName} = {...}) instead of declaring it with var.`,
    );
  }
  if (value === undefined) return Object.freeze({});
  if (typeof value !== 'object' || value === null) {
    throw new PluginHostError(
      'INVALID_ARGUMENT',
      `The page's ${globalName} holds a ${value === null ? 'null' : typeof value}, not an object of boot values; set it to an object such as {token: "..."}.`,
    );
  }
  return Object.freeze({ ...(value as Record<string, unknown>) });
}
