import { randomUUID } from 'node:crypto';
import type { RegistryDatabase } from '../storage/registry-database.js';
import { AUTH_MIGRATIONS } from './auth-migrations.js';
import type {
  AccountKind,
  AccountRecord,
  AuthRepository,
  DeviceAuthorizationRecord,
  DeviceDecision,
  NewAccount,
  NewDeviceAuthorization,
  NewSession,
  RefreshOutcome,
  SessionRecord,
} from './auth-repository.js';
import { toAccount, toDevice, toSession, type AccountRow, type DeviceRow, type RefreshTokenRow, type SessionRow } from './auth-rows.js';

/**
 * {@link AuthRepository} on the registry's embedded SQLite database. The constructor applies the
 * `auth` module's migrations. better-sqlite3 is synchronous, so each method finishes (and each
 * atomic one commits) before its promise settles.
 */
export class SqliteAuthRepository implements AuthRepository {
  constructor(private readonly database: RegistryDatabase) {
    database.migrate('auth', AUTH_MIGRATIONS);
  }

  private get db(): RegistryDatabase['db'] {
    return this.database.db;
  }

  async createAccount(account: NewAccount): Promise<AccountRecord | null> {
    return this.insertAccount(account);
  }

  async findAccountById(id: string): Promise<AccountRecord | null> {
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
    return row ? toAccount(row) : null;
  }

  async findAccountByUsername(username: string): Promise<AccountRecord | null> {
    return this.accountNamed(username);
  }

  async setPasswordHash(accountId: string, passwordHash: string): Promise<void> {
    this.db.prepare("UPDATE accounts SET password_hash = ? WHERE id = ? AND kind = 'user'").run(passwordHash, accountId);
  }

  async ensureAccount(username: string, kind: AccountKind, now: Date): Promise<AccountRecord> {
    return this.database.transaction(() => {
      const existing = this.accountNamed(username);
      if (existing) return existing;
      const created = this.insertAccount({ username, passwordHash: null, kind, createdAt: now });
      if (!created) throw new Error(`Account ${username} could not be created`);
      return created;
    });
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    return this.database.transaction(() => {
      const row: SessionRow = {
        id: randomUUID(),
        account_id: session.accountId,
        created_at: session.createdAt.toISOString(),
        expires_at: session.expiresAt.toISOString(),
        revoked_at: null,
      };
      this.db
        .prepare('INSERT INTO auth_sessions (id, account_id, created_at, expires_at, revoked_at) VALUES (@id, @account_id, @created_at, @expires_at, NULL)')
        .run(row);
      this.insertRefreshToken(row, session.refreshTokenHash, session.createdAt);
      return toSession(row);
    });
  }

  async findSession(id: string): Promise<SessionRecord | null> {
    return this.sessionById(id);
  }

  async findSessionByRefreshToken(tokenHash: string): Promise<SessionRecord | null> {
    const row = this.db.prepare('SELECT s.* FROM auth_sessions s JOIN auth_refresh_tokens t ON t.family_id = s.id WHERE t.token_hash = ?').get(tokenHash) as
      | SessionRow
      | undefined;
    return row ? toSession(row) : null;
  }

  async rotateRefreshToken(tokenHash: string, nextTokenHash: string, now: Date): Promise<RefreshOutcome> {
    return this.database.transaction((): RefreshOutcome => {
      const token = this.db.prepare('SELECT id, family_id, used_at, revoked_at FROM auth_refresh_tokens WHERE token_hash = ?').get(tokenHash) as
        | RefreshTokenRow
        | undefined;
      if (!token) return { kind: 'unknown' };
      const session = this.db.prepare('SELECT * FROM auth_sessions WHERE id = ?').get(token.family_id) as SessionRow | undefined;
      if (!session) return { kind: 'unknown' };
      if (session.revoked_at !== null || token.revoked_at !== null) return { kind: 'revoked' };
      if (token.used_at !== null) {
        // A spent token came back: someone holds a copy. Which copy is the thief's is unknowable,
        // so the whole family ends (RFC 9700 section 4.14.2).
        this.revokeFamily(session.id, now);
        return { kind: 'reused', sessionId: session.id };
      }
      if (new Date(session.expires_at).getTime() <= now.getTime()) return { kind: 'expired' };
      this.db.prepare('UPDATE auth_refresh_tokens SET used_at = ? WHERE id = ?').run(now.toISOString(), token.id);
      this.insertRefreshToken(session, nextTokenHash, now);
      return { kind: 'rotated', session: toSession(session) };
    });
  }

  async revokeSession(id: string, now: Date): Promise<void> {
    this.database.transaction(() => this.revokeFamily(id, now));
  }

  async createDeviceAuthorization(request: NewDeviceAuthorization): Promise<DeviceAuthorizationRecord | null> {
    const row: DeviceRow = {
      id: randomUUID(),
      device_code_hash: request.deviceCodeHash,
      user_code: request.userCode,
      client_id: request.clientId,
      status: 'pending',
      account_id: null,
      interval_seconds: request.intervalSeconds,
      last_polled_at: null,
      created_at: request.createdAt.toISOString(),
      expires_at: request.expiresAt.toISOString(),
      exchanged_at: null,
    };
    const result = this.db
      .prepare(
        `INSERT INTO auth_device_authorizations
           (id, device_code_hash, user_code, client_id, status, interval_seconds, created_at, expires_at)
         VALUES (@id, @device_code_hash, @user_code, @client_id, @status, @interval_seconds, @created_at, @expires_at)
         ON CONFLICT DO NOTHING`,
      )
      .run(row);
    return result.changes === 1 ? toDevice(row) : null;
  }

  async findDeviceAuthorizationByDeviceCode(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null> {
    const row = this.db.prepare('SELECT * FROM auth_device_authorizations WHERE device_code_hash = ?').get(deviceCodeHash) as DeviceRow | undefined;
    return row ? toDevice(row) : null;
  }

  async findDeviceAuthorizationByUserCode(userCode: string): Promise<DeviceAuthorizationRecord | null> {
    const row = this.db.prepare('SELECT * FROM auth_device_authorizations WHERE user_code = ?').get(userCode) as DeviceRow | undefined;
    return row ? toDevice(row) : null;
  }

  async recordDevicePoll(id: string, now: Date, intervalSeconds: number): Promise<void> {
    this.db.prepare('UPDATE auth_device_authorizations SET last_polled_at = ?, interval_seconds = ? WHERE id = ?').run(now.toISOString(), intervalSeconds, id);
  }

  async decideDeviceAuthorization(id: string, decision: DeviceDecision, now: Date): Promise<boolean> {
    const accountId = decision.status === 'approved' ? decision.accountId : null;
    const result = this.db
      .prepare(
        `UPDATE auth_device_authorizations SET status = ?, account_id = ?, decided_at = ?
         WHERE id = ? AND status = 'pending' AND expires_at > ?`,
      )
      .run(decision.status, accountId, now.toISOString(), id, now.toISOString());
    return result.changes === 1;
  }

  async markDeviceAuthorizationExchanged(id: string, now: Date): Promise<boolean> {
    const result = this.db
      .prepare(`UPDATE auth_device_authorizations SET exchanged_at = ? WHERE id = ? AND status = 'approved' AND exchanged_at IS NULL`)
      .run(now.toISOString(), id);
    return result.changes === 1;
  }

  async secret(name: string, generate: () => string): Promise<string> {
    this.db
      .prepare('INSERT INTO auth_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
      .run(name, generate(), new Date().toISOString());
    return (this.db.prepare('SELECT value FROM auth_secrets WHERE name = ?').get(name) as { value: string }).value;
  }

  async deleteExpired(now: Date): Promise<void> {
    const time = now.toISOString();
    this.database.transaction(() => {
      // Refresh tokens go with their session (ON DELETE CASCADE).
      this.db.prepare('DELETE FROM auth_sessions WHERE expires_at <= ?').run(time);
      this.db.prepare('DELETE FROM auth_device_authorizations WHERE expires_at <= ?').run(time);
    });
  }

  private accountNamed(username: string): AccountRecord | null {
    const row = this.db.prepare('SELECT * FROM accounts WHERE username = ?').get(username) as AccountRow | undefined;
    return row ? toAccount(row) : null;
  }

  private insertAccount(account: NewAccount): AccountRecord | null {
    const row: AccountRow = {
      id: randomUUID(),
      username: account.username,
      password_hash: account.passwordHash,
      kind: account.kind,
      created_at: account.createdAt.toISOString(),
    };
    const result = this.db
      .prepare(
        'INSERT INTO accounts (id, username, password_hash, kind, created_at) VALUES (@id, @username, @password_hash, @kind, @created_at) ON CONFLICT DO NOTHING',
      )
      .run(row);
    return result.changes === 1 ? toAccount(row) : null;
  }

  private sessionById(id: string): SessionRecord | null {
    const row = this.db.prepare('SELECT * FROM auth_sessions WHERE id = ?').get(id) as SessionRow | undefined;
    return row ? toSession(row) : null;
  }

  private insertRefreshToken(session: SessionRow, tokenHash: string, now: Date): void {
    this.db
      .prepare('INSERT INTO auth_refresh_tokens (id, family_id, account_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(randomUUID(), session.id, session.account_id, tokenHash, now.toISOString(), session.expires_at);
  }

  private revokeFamily(sessionId: string, now: Date): void {
    const time = now.toISOString();
    this.db.prepare('UPDATE auth_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(time, sessionId);
    this.db.prepare('UPDATE auth_refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL').run(time, sessionId);
  }
}
