/** Row shapes of the auth module's tables and their conversion to records, the same for both stores. */
import type { AccountKind, AccountRecord, DeviceAuthorizationRecord, DeviceAuthorizationStatus, SessionRecord } from './auth-repository.js';

export interface AccountRow {
  id: string;
  username: string;
  password_hash: string | null;
  kind: AccountKind;
  created_at: string;
}

export interface SessionRow {
  id: string;
  account_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface RefreshTokenRow {
  id: string;
  family_id: string;
  used_at: string | null;
  revoked_at: string | null;
}

export interface DeviceRow {
  id: string;
  device_code_hash: string;
  user_code: string;
  client_id: string | null;
  status: DeviceAuthorizationStatus;
  account_id: string | null;
  interval_seconds: number;
  last_polled_at: string | null;
  created_at: string;
  expires_at: string;
  exchanged_at: string | null;
}

const dateOrNull = (value: string | null): Date | null => (value === null ? null : new Date(value));

export function toAccount(row: AccountRow): AccountRecord {
  return { id: row.id, username: row.username, passwordHash: row.password_hash, kind: row.kind, createdAt: new Date(row.created_at) };
}

export function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    revokedAt: dateOrNull(row.revoked_at),
  };
}

export function toDevice(row: DeviceRow): DeviceAuthorizationRecord {
  return {
    id: row.id,
    deviceCodeHash: row.device_code_hash,
    userCode: row.user_code,
    clientId: row.client_id,
    status: row.status,
    accountId: row.account_id,
    intervalSeconds: row.interval_seconds,
    lastPolledAt: dateOrNull(row.last_polled_at),
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    exchangedAt: dateOrNull(row.exchanged_at),
  };
}
