import type { LauncherSourceStatus } from '@plughost/web-components';
import type { LauncherBackend } from './launcher-backend.js';

/** Which store the Store page reads from, and how to say so. */
export type StoreSourceChoice =
  | { readonly kind: 'source'; readonly url: string; readonly primary: boolean }
  /** No enabled source is usable: store features are disabled (decisions section 8). */
  | { readonly kind: 'unavailable'; readonly message: string }
  /** The launcher has no enabled source at all. */
  | { readonly kind: 'none' };

/** `GET /registry` deadline of the page's own probe: the same 5 s the backend gives discovery. */
const PROBE_TIMEOUT_MS = 5_000;

/** Whether the store at `url` answers `GET /registry` now (the release CSP lists every enabled source). */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/registry`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}

function choiceOf(statuses: readonly LauncherSourceStatus[]): StoreSourceChoice | undefined {
  const active = statuses.find((source) => source.active && source.usable);
  if (active) return { kind: 'source', url: active.url, primary: active.primary };
  const enabled = statuses.filter((source) => source.enabled);
  if (enabled.length === 0) return { kind: 'none' };
  return undefined;
}

function unavailable(statuses: readonly LauncherSourceStatus[]): StoreSourceChoice {
  const reasons = statuses.filter((source) => source.enabled).map((source) => `${source.url}: ${source.lastError ?? 'not usable'}`);
  return { kind: 'unavailable', message: `Store features are disabled: no plugin source can be used (${reasons.join('; ')}). Check the network, then retry.` };
}

/**
 * The source the Store page shows: the backend's active source (`GET /api/registries`), checked
 * with one `GET /registry` from the page. The backend learns that a source went away only at its
 * next discovery, so when the active source does not answer the page asks the backend to discover
 * again (`POST /api/registries/retry`) and takes the source that is active then: with the primary
 * down, a usable backup (the specification's fallback table, decisions section 8).
 */
export async function chooseStoreSource(backend: LauncherBackend, probe: (url: string) => Promise<boolean> = answers): Promise<StoreSourceChoice> {
  const known = await backend.registries();
  const choice = choiceOf(known);
  if (choice?.kind === 'none') return choice;
  if (choice?.kind === 'source' && (await probe(choice.url))) return choice;
  const discovered = await backend.retryRegistries();
  return choiceOf(discovered) ?? unavailable(discovered);
}
