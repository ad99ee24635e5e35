/**
 * The guest runtime: the classic script injected into every plugin frame before the plugin's own
 * scripts. It defines `window.__PLUGIN_API__` synchronously, opens the penpal connection to the
 * launcher window at once, reports the frame's uncaught errors and its content height.
 */
import type {} from './global.js';
import { createGuestMethods } from './guest-methods.js';
import { createGuestParts } from './guest-parts.js';
import { openHostSession, type HostAccess, type HostSession } from './host-session.js';
import { createPluginApi } from './create-plugin-api.js';
import { createRateLimiter } from './rate-limiter.js';
import { watchErrors } from './error-reporter.js';
import { reportHeight } from './height-report.js';
import { GUEST_RUNTIME_VERSION } from './version.js';

declare global {
  interface Window {
    /** Set by the guest runtime: tells the host the runtime was injected, and which one. */
    __PLUGIN_GUEST_RUNTIME__?: { readonly version: string };
  }
}

/** At most this many error reports per minute leave the frame. */
const REPORTS_PER_MINUTE = 20;

/** Defines a global nobody can overwrite, delete or redefine. */
function defineConstant(name: string, value: unknown): void {
  Object.defineProperty(window, name, { value, enumerable: false, configurable: false, writable: false });
}

function install(): void {
  defineConstant('__PLUGIN_GUEST_RUNTIME__', Object.freeze({ version: GUEST_RUNTIME_VERSION }));

  const newId = crypto.randomUUID.bind(crypto);
  // The registries need the host, the host connection needs the registries' guest methods: the
  // registries get a function that reads the session, which exists before anything can call it.
  let session: HostSession;
  const host: HostAccess = (...call) => session.host(...call);

  // Listening first: the registries hand it the errors of the plugin functions they call.
  const errors = watchErrors(window, host, createRateLimiter({ limit: REPORTS_PER_MINUTE, windowMs: 60_000 }));
  const parts = createGuestParts(host, newId, errors);
  const opened = openHostSession(createGuestMethods(parts), GUEST_RUNTIME_VERSION);
  session = opened;

  // The launcher sizes the frame to its content, which only the frame can measure.
  reportHeight();

  const api = createPluginApi({ ...parts, host, identity: opened.identity, runtimeVersion: GUEST_RUNTIME_VERSION });
  defineConstant('__PLUGIN_API__', api);

  void opened.identity.then(
    ({ apiBase }) => {
      // The launcher normally injects this before the plugin runs; fill it in when it did not.
      if (apiBase !== null && !('__PLUGIN_API_BASE__' in window)) {
        defineConstant('__PLUGIN_API_BASE__', apiBase);
      }
    },
    () => undefined,
  );
}

// A second copy of the script (injected twice) must not open a second connection.
if (!('__PLUGIN_GUEST_RUNTIME__' in window)) install();
