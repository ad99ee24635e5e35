/**
 * What the harness server tells its page, and where it serves the page's files. Shared by the
 * server (Node) and the page's browser bundle, so it holds types and constants only: no DOM, no
 * `node:` imports.
 */
import type { DevServerEvent } from '@plughost/host-sdk/core';

/** A build event of one plugin (every dev server event but `hello`). */
export type HarnessBuildEvent = Exclude<DevServerEvent, { readonly type: 'hello' }>;

/** The harness page's settings, embedded in the page as JSON. */
export interface HarnessPageConfig {
  /** The stub backend the harness forwards `/api/*` to (shown in the header). */
  readonly stubUrl: string;
  /** The `--mock` file the stub was started with, as given on the command line; `null` without one. */
  readonly mockFile: string | null;
  /** The keys the mock overrides (`settings`, `systemInfo`, ...); empty without a mock. */
  readonly mockKeys: readonly string[];
  /**
   * The last build event of each plugin when the page was served, so a page opened after a build
   * shows its outcome (the event stream sends only what happens after it connects).
   */
  readonly builds: readonly HarnessBuildEvent[];
}

/** The `id` of the `<script type="application/json">` element that carries {@link HarnessPageConfig}. */
export const HARNESS_CONFIG_ELEMENT_ID = 'harness-config';

/**
 * The harness's own files. They live under the dev server's `/__pluginctl/` prefix (beside the
 * event stream) so that no path of a launcher (`/api/*`) or of a plugin can collide with them.
 */
export const HARNESS_PATHS = {
  script: '/__pluginctl/harness.js',
  stylesheet: '/__pluginctl/harness.css',
  guestRuntime: '/__pluginctl/guest-runtime.js',
  /**
   * The last build event of each plugin now (JSON array of {@link HarnessBuildEvent}). The page
   * reads it whenever its event stream (re)connects, for what happened while it was not connected.
   */
  builds: '/__pluginctl/builds',
} as const;
