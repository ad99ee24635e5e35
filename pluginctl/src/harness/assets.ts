import { guestRuntime, script, stylesheet } from 'virtual:harness-client';

/** The harness page's files, served from memory. */
export interface HarnessAssets {
  readonly script: string;
  readonly stylesheet: string;
  readonly guestRuntime: string;
}

/** The files built into this pluginctl file (see `build-client.mjs`). */
export const HARNESS_ASSETS: HarnessAssets = { script, stylesheet, guestRuntime };
