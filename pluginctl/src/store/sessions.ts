import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from '../cli-error.js';

/** A saved session lasts 30 days from the login (spec: "Store login"). */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** One store's session as kept on disk. */
export interface StoredSession {
  readonly accessToken: string;
  /** ISO time the access token stops working (15 minutes after it was issued). */
  readonly accessTokenExpiresAt: string;
  readonly refreshToken: string;
  /** ISO time of the device-flow login; the session ends {@link SESSION_LIFETIME_MS} later. */
  readonly loggedInAt: string;
  /** ISO time after which the session is not used any more. */
  readonly expiresAt: string;
}

type SessionFile = Record<string, StoredSession>;

/** `$XDG_CONFIG_HOME/pluginctl/sessions.json`, else `~/.config/pluginctl/sessions.json`. */
export function sessionsPath(env: NodeJS.ProcessEnv = process.env): string {
  const config = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME.trim() : join(homedir(), '.config');
  return join(config, 'pluginctl', 'sessions.json');
}

function isSession(value: unknown): value is StoredSession {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['accessToken', 'accessTokenExpiresAt', 'refreshToken', 'loggedInAt', 'expiresAt'].every((name) => typeof record[name] === 'string');
}

/**
 * The sessions of every store, keyed by store API base. Writes go through a temporary file created
 * with mode 0600 and a rename, so the tokens are never readable by other users, not even briefly,
 * and a crash never leaves half a file.
 */
export class SessionStore {
  constructor(readonly path: string = sessionsPath()) {}

  private async readAll(): Promise<SessionFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new CliError(
        'SESSION_UNREADABLE',
        `Cannot read ${this.path} (${(error as Error).message}); fix its permissions or delete it and run pluginctl login.`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new CliError('SESSION_UNREADABLE', `${this.path} is not JSON; delete it and run pluginctl login again.`);
    }
    const sessions: SessionFile = {};
    if (typeof parsed === 'object' && parsed !== null) {
      for (const [base, session] of Object.entries(parsed)) if (isSession(session)) sessions[base] = session;
    }
    return sessions;
  }

  private async writeAll(sessions: SessionFile): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(sessions, null, 2)}\n`, { mode: 0o600 });
    // writeFile's mode is masked by the umask; make sure it is exactly 0600.
    await chmod(temporary, 0o600);
    await rename(temporary, this.path);
  }

  /** The session for `base`, or `undefined` when there is none or it is past its 30 days. */
  async get(base: string, now: Date = new Date()): Promise<StoredSession | undefined> {
    const session = (await this.readAll())[base];
    if (session === undefined || Date.parse(session.expiresAt) <= now.getTime()) return undefined;
    return session;
  }

  /** Saves (or replaces) the session for `base`. */
  async set(base: string, session: StoredSession): Promise<void> {
    const sessions = await this.readAll();
    sessions[base] = session;
    await this.writeAll(sessions);
  }

  /** Deletes the session for `base`; true when there was one. The file goes when it is empty. */
  async delete(base: string): Promise<boolean> {
    const sessions = await this.readAll();
    if (!Object.hasOwn(sessions, base)) return false;
    delete sessions[base];
    if (Object.keys(sessions).length === 0) await rm(this.path, { force: true });
    else await this.writeAll(sessions);
    return true;
  }
}
