import { randomUUID } from 'node:crypto';
import type { SqlScope } from '../storage/postgres-database.js';
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
 * {@link AuthRepository} on PostgreSQL, the twin of `SqliteAuthRepository`. The atomic methods
 * hold for several registry instances on one database: refresh-token rotation locks the token's
 * row (`FOR UPDATE`), so of two requests presenting the same token at once, one rotates it and the
 * other finds it spent and revokes the family; device decisions and exchanges are conditional
 * updates; creations are `ON CONFLICT DO NOTHING` followed by a read. The migrations
 * (`POSTGRES_AUTH_MIGRATIONS`) run when the store opens.
 */
export class PostgresAuthRepository implements AuthRepository {
  constructor(private readonly scope: SqlScope) {}

  async createAccount(account: NewAccount): Promise<AccountRecord | null> {
    return insertAccount(this.scope, account);
  }

  async findAccountById(id: string): Promise<AccountRecord | null> {
    const row = await one<AccountRow>(this.scope, 'SELECT * FROM accounts WHERE id = $1', [id]);
    return row ? toAccount(row) : null;
  }

  async findAccountByUsername(username: string): Promise<AccountRecord | null> {
    return accountNamed(this.scope, username);
  }

  async setPasswordHash(accountId: string, passwordHash: string): Promise<void> {
    await this.scope.query("UPDATE accounts SET password_hash = $2 WHERE id = $1 AND kind = 'user'", [accountId, passwordHash]);
  }

  async ensureAccount(username: string, kind: AccountKind, now: Date): Promise<AccountRecord> {
    const existing = await accountNamed(this.scope, username);
    if (existing) return existing;
    // Created meanwhile by another instance: the insert does nothing and the read finds it.
    const created = (await insertAccount(this.scope, { username, passwordHash: null, kind, createdAt: now })) ?? (await accountNamed(this.scope, username));
    if (!created) throw new Error(`Account ${username} could not be created`);
    return created;
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    return this.scope.transaction(async (scope) => {
      const row = await one<SessionRow>(scope, 'INSERT INTO auth_sessions (id, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4) RETURNING *', [
        randomUUID(),
        session.accountId,
        session.createdAt.toISOString(),
        session.expiresAt.toISOString(),
      ]);
      if (!row) throw new Error('The session just created cannot be read back');
      await insertRefreshToken(scope, row, session.refreshTokenHash, session.createdAt);
      return toSession(row);
    });
  }

  async findSession(id: string): Promise<SessionRecord | null> {
    const row = await one<SessionRow>(this.scope, 'SELECT * FROM auth_sessions WHERE id = $1', [id]);
    return row ? toSession(row) : null;
  }

  async findSessionByRefreshToken(tokenHash: string): Promise<SessionRecord | null> {
    const row = await one<SessionRow>(this.scope, 'SELECT s.* FROM auth_sessions s JOIN auth_refresh_tokens t ON t.family_id = s.id WHERE t.token_hash = $1', [
      tokenHash,
    ]);
    return row ? toSession(row) : null;
  }

  async rotateRefreshToken(tokenHash: string, nextTokenHash: string, now: Date): Promise<RefreshOutcome> {
    return this.scope.transaction(async (scope): Promise<RefreshOutcome> => {
      // The row lock makes a second presentation of the same token wait, then see it spent.
      const token = await one<RefreshTokenRow>(scope, 'SELECT id, family_id, used_at, revoked_at FROM auth_refresh_tokens WHERE token_hash = $1 FOR UPDATE', [
        tokenHash,
      ]);
      if (!token) return { kind: 'unknown' };
      const session = await one<SessionRow>(scope, 'SELECT * FROM auth_sessions WHERE id = $1 FOR UPDATE', [token.family_id]);
      if (!session) return { kind: 'unknown' };
      if (session.revoked_at !== null || token.revoked_at !== null) return { kind: 'revoked' };
      if (token.used_at !== null) {
        // A spent token came back: someone holds a copy, and which copy is the thief's is
        // unknowable, so the whole family ends (RFC 9700 section 4.14.2).
        await revokeFamily(scope, session.id, now);
        return { kind: 'reused', sessionId: session.id };
      }
      if (new Date(session.expires_at).getTime() <= now.getTime()) return { kind: 'expired' };
      await scope.query('UPDATE auth_refresh_tokens SET used_at = $2 WHERE id = $1', [token.id, now.toISOString()]);
      await insertRefreshToken(scope, session, nextTokenHash, now);
      return { kind: 'rotated', session: toSession(session) };
    });
  }

  async revokeSession(id: string, now: Date): Promise<void> {
    await this.scope.transaction((scope) => revokeFamily(scope, id, now));
  }

  async createDeviceAuthorization(request: NewDeviceAuthorization): Promise<DeviceAuthorizationRecord | null> {
    const row = await one<DeviceRow>(
      this.scope,
      `INSERT INTO auth_device_authorizations (id, device_code_hash, user_code, client_id, status, interval_seconds, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7)
       ON CONFLICT DO NOTHING
       RETURNING *`,
      [
        randomUUID(),
        request.deviceCodeHash,
        request.userCode,
        request.clientId,
        request.intervalSeconds,
        request.createdAt.toISOString(),
        request.expiresAt.toISOString(),
      ],
    );
    return row ? toDevice(row) : null;
  }

  async findDeviceAuthorizationByDeviceCode(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null> {
    const row = await one<DeviceRow>(this.scope, 'SELECT * FROM auth_device_authorizations WHERE device_code_hash = $1', [deviceCodeHash]);
    return row ? toDevice(row) : null;
  }

  async findDeviceAuthorizationByUserCode(userCode: string): Promise<DeviceAuthorizationRecord | null> {
    const row = await one<DeviceRow>(this.scope, 'SELECT * FROM auth_device_authorizations WHERE user_code = $1', [userCode]);
    return row ? toDevice(row) : null;
  }

  async recordDevicePoll(id: string, now: Date, intervalSeconds: number): Promise<void> {
    await this.scope.query('UPDATE auth_device_authorizations SET last_polled_at = $2, interval_seconds = $3 WHERE id = $1', [
      id,
      now.toISOString(),
      intervalSeconds,
    ]);
  }

  async decideDeviceAuthorization(id: string, decision: DeviceDecision, now: Date): Promise<boolean> {
    const accountId = decision.status === 'approved' ? decision.accountId : null;
    const result = await this.scope.query(
      `UPDATE auth_device_authorizations SET status = $2, account_id = $3, decided_at = $4
       WHERE id = $1 AND status = 'pending' AND expires_at > $4`,
      [id, decision.status, accountId, now.toISOString()],
    );
    return result.rowCount === 1;
  }

  async markDeviceAuthorizationExchanged(id: string, now: Date): Promise<boolean> {
    const result = await this.scope.query(
      `UPDATE auth_device_authorizations SET exchanged_at = $2 WHERE id = $1 AND status = 'approved' AND exchanged_at IS NULL`,
      [id, now.toISOString()],
    );
    return result.rowCount === 1;
  }

  async secret(name: string, generate: () => string): Promise<string> {
    // Every instance asking at once keeps the value of whichever insert won.
    await this.scope.query('INSERT INTO auth_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
      name,
      generate(),
      new Date().toISOString(),
    ]);
    const row = await one<{ value: string }>(this.scope, 'SELECT value FROM auth_secrets WHERE name = $1', [name]);
    if (!row) throw new Error(`The auth secret ${name} cannot be read back`);
    return row.value;
  }

  async deleteExpired(now: Date): Promise<void> {
    const time = now.toISOString();
    await this.scope.transaction(async (scope) => {
      // Refresh tokens go with their session (ON DELETE CASCADE).
      await scope.query('DELETE FROM auth_sessions WHERE expires_at <= $1', [time]);
      await scope.query('DELETE FROM auth_device_authorizations WHERE expires_at <= $1', [time]);
    });
  }
}

async function one<R extends object>(scope: SqlScope, text: string, values: readonly unknown[]): Promise<R | undefined> {
  return (await scope.query<R & Record<string, unknown>>(text, values)).rows[0];
}

async function accountNamed(scope: SqlScope, username: string): Promise<AccountRecord | null> {
  const row = await one<AccountRow>(scope, 'SELECT * FROM accounts WHERE lower(username) = lower($1)', [username]);
  return row ? toAccount(row) : null;
}

async function insertAccount(scope: SqlScope, account: NewAccount): Promise<AccountRecord | null> {
  const row = await one<AccountRow>(
    scope,
    'INSERT INTO accounts (id, username, password_hash, kind, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING *',
    [randomUUID(), account.username, account.passwordHash, account.kind, account.createdAt.toISOString()],
  );
  return row ? toAccount(row) : null;
}

async function insertRefreshToken(scope: SqlScope, session: SessionRow, tokenHash: string, now: Date): Promise<void> {
  await scope.query('INSERT INTO auth_refresh_tokens (id, family_id, account_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    randomUUID(),
    session.id,
    session.account_id,
    tokenHash,
    now.toISOString(),
    session.expires_at,
  ]);
}

async function revokeFamily(scope: SqlScope, sessionId: string, now: Date): Promise<void> {
  const time = now.toISOString();
  await scope.query('UPDATE auth_sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [sessionId, time]);
  await scope.query('UPDATE auth_refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [sessionId, time]);
}
