import { storeFetch, storeFailure } from './store-http.js';
import type { SessionStore, StoredSession } from './sessions.js';
import { parseTokenResponse, sessionFrom } from './tokens.js';

/** Refresh a little before the access token's end, so it does not expire mid-upload. */
const EXPIRY_MARGIN_MS = 60_000;

/** How a command is signed in to the store. */
export type StoreCredential =
  | { readonly kind: 'api-key'; readonly token: string }
  | { readonly kind: 'session'; readonly token: string; readonly session: StoredSession };

/** `PLUGINCTL_API_KEY` (CI mode), when set and not blank. */
export function apiKeyFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const key = env.PLUGINCTL_API_KEY?.trim();
  return key ? key : undefined;
}

/**
 * The saved session of `base` with a usable access token: refreshed through `POST /auth/refresh`
 * when it is about to expire, the rotated pair saved at once (the old refresh token is dead from
 * now on). `undefined` when there is no session, it is past its 30 days, or the store refused the
 * refresh (then the session is deleted: only a new login helps).
 */
export async function freshSession(base: string, store: SessionStore, now: Date = new Date()): Promise<StoredSession | undefined> {
  const session = await store.get(base, now);
  if (session === undefined) return undefined;
  if (Date.parse(session.accessTokenExpiresAt) - EXPIRY_MARGIN_MS > now.getTime()) return session;
  const answer = await storeFetch(base, '/auth/refresh', { json: { refresh_token: session.refreshToken } });
  if (answer.status === 400 || answer.status === 401) {
    await store.delete(base);
    return undefined;
  }
  if (answer.status !== 200) throw storeFailure('POST /auth/refresh', answer, 'Try again later, or run pluginctl login.');
  const renewed = sessionFrom(parseTokenResponse(answer.body, 'POST /auth/refresh'), now, session);
  await store.set(base, renewed);
  return renewed;
}

/** The API key of the environment, else the fresh saved session; `undefined` when neither exists. */
export async function existingCredential(base: string, store: SessionStore, env: NodeJS.ProcessEnv = process.env): Promise<StoreCredential | undefined> {
  const apiKey = apiKeyFromEnv(env);
  if (apiKey !== undefined) return { kind: 'api-key', token: apiKey };
  const session = await freshSession(base, store);
  return session === undefined ? undefined : { kind: 'session', token: session.accessToken, session };
}
