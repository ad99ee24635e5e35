import { spawn } from 'node:child_process';
import { CliError } from '../cli-error.js';
import { storeCall, storeCodeOf, storeFailure, storeFetch, stringFieldOf } from './store-http.js';
import { parseTokenResponse, type TokenResponse } from './tokens.js';

/** RFC 8628 section 3.4. */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
/** This tool's `client_id` at the store. */
export const CLIENT_ID = 'pluginctl';
/** Seconds added to the polling interval by each `slow_down` (RFC 8628 section 3.5). */
export const SLOW_DOWN_STEP_SECONDS = 5;

/** What the device flow does to the outside world; tests replace the clock, the sleep and the browser. */
export interface DeviceFlowIo {
  /** Prints a line for the user (stderr when stdout must stay clean). */
  say(line: string): void;
  /** Opens `url` in a browser when it can; never throws. True when an opener was started. */
  openBrowser(url: string): boolean;
  /** Waits `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
  now(): Date;
}

/** Opens `url` with the platform's opener, detached; a missing opener or failure is ignored. */
export function openInBrowser(url: string): boolean {
  const [command, args]: [string, string[]] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? // `start` is a cmd built-in; `^&` keeps a query's `&` from splitting the command.
          ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsVerbatimArguments: process.platform === 'win32' });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    // Opening the browser is a convenience: the URI is printed either way.
    return false;
  }
}

/**
 * The real clock, sleep and browser; the browser only on a terminal and without
 * `PLUGINCTL_NO_BROWSER`, so CI logs and tests never spawn one.
 */
export function defaultDeviceFlowIo(say: (line: string) => void): DeviceFlowIo {
  return {
    say,
    openBrowser: (url) => process.stdout.isTTY === true && process.env.PLUGINCTL_NO_BROWSER === undefined && openInBrowser(url),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: () => new Date(),
  };
}

/** True when `uri` has the same origin (scheme, host, port) as the store API base. */
export function isSameOrigin(uri: string, base: string): boolean {
  try {
    return new URL(uri).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

function positiveNumber(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * Signs in with the device authorization grant (RFC 8628): asks `POST /auth/device/code`, shows
 * the user code and the verification URI (opening `verification_uri_complete` in a browser only
 * when it is on the store's own origin, so a store cannot send the user's browser elsewhere), then
 * polls `POST /auth/token` every `interval` seconds, 5 more after each `slow_down`, until the user
 * approves, denies, or the code expires.
 *
 * @throws CliError `LOGIN_DENIED`, `LOGIN_EXPIRED`, or a store error.
 */
export async function deviceLogin(base: string, io: DeviceFlowIo): Promise<TokenResponse> {
  const started = await storeCall(base, '/auth/device/code', { json: { client_id: CLIENT_ID } }, [200], 'Try again later, or check --api.');
  const deviceCode = stringFieldOf(started.body, 'device_code', 'POST /auth/device/code');
  const userCode = stringFieldOf(started.body, 'user_code', 'POST /auth/device/code');
  const verificationUri = stringFieldOf(started.body, 'verification_uri', 'POST /auth/device/code');
  const fields = started.body as Record<string, unknown>;
  const complete = typeof fields.verification_uri_complete === 'string' ? fields.verification_uri_complete : undefined;
  let intervalSeconds = positiveNumber(fields.interval, 5);
  const deadline = io.now().getTime() + positiveNumber(fields.expires_in, 900) * 1000;

  io.say(`To sign in, open ${verificationUri} and enter the code ${userCode}`);
  if (complete !== undefined && isSameOrigin(complete, base)) {
    io.say(io.openBrowser(complete) ? `Opened ${complete} in your browser.` : `Or open ${complete} (the code is filled in).`);
  } else if (complete !== undefined) {
    // Another origin: print it for the user to judge, never open it.
    io.say(`The store suggests ${complete}; it is not on the store's own address, so it was not opened.`);
  }
  io.say('Waiting for approval...');

  for (;;) {
    await io.sleep(intervalSeconds * 1000);
    if (io.now().getTime() >= deadline) break;
    const answer = await storeFetch(base, '/auth/token', { json: { grant_type: DEVICE_CODE_GRANT_TYPE, device_code: deviceCode, client_id: CLIENT_ID } });
    if (answer.status === 200) return parseTokenResponse(answer.body, 'POST /auth/token');
    const code = storeCodeOf(answer);
    if (code === 'authorization_pending') continue;
    if (code === 'slow_down') {
      intervalSeconds += SLOW_DOWN_STEP_SECONDS;
      continue;
    }
    if (code === 'access_denied')
      throw new CliError('LOGIN_DENIED', `The sign-in request ${userCode} was denied on the store. Run pluginctl login again if that was a mistake.`);
    if (code === 'expired_token') break;
    throw storeFailure('POST /auth/token', answer, 'Run pluginctl login again.');
  }
  throw new CliError('LOGIN_EXPIRED', `The code ${userCode} expired before it was approved. Run pluginctl login again and approve the new code in time.`);
}
