/** `user`: registered with a password. `api`: created for a publisher API key, has no password. */
export type AccountKind = 'user' | 'api';

/** A registry account. */
export interface AccountRecord {
  readonly id: string;
  /** Lower-cased; unique case-insensitively. */
  readonly username: string;
  /** The scrypt hash (see `password-hash.ts`), or `null` for an account that cannot log in with a password. */
  readonly passwordHash: string | null;
  readonly kind: AccountKind;
  readonly createdAt: Date;
}

/** What {@link AuthRepository.createAccount} needs. */
export interface NewAccount {
  readonly username: string;
  readonly passwordHash: string | null;
  readonly kind: AccountKind;
  readonly createdAt: Date;
}

/**
 * A login session: one refresh-token family. Every rotation adds a token to it; revoking it
 * (logout, reuse of a spent refresh token) ends every refresh token and access token issued in it.
 */
export interface SessionRecord {
  readonly id: string;
  readonly accountId: string;
  readonly createdAt: Date;
  /** 30 days after login; refresh tokens of the family never outlive it. */
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
}

/** What {@link AuthRepository.createSession} needs. */
export interface NewSession {
  readonly accountId: string;
  /** SHA-256 (hex) of the session's first refresh token. */
  readonly refreshTokenHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/**
 * The result of presenting a refresh token:
 * - `rotated`: it was current; it is now spent and `nextTokenHash` is the family's current token;
 * - `reused`: it had been spent before, so it leaked: the whole family is now revoked;
 * - `revoked`, `expired`, `unknown`: refused, nothing changed.
 */
export type RefreshOutcome =
  | { readonly kind: 'rotated'; readonly session: SessionRecord }
  | { readonly kind: 'reused'; readonly sessionId: string }
  | { readonly kind: 'revoked' }
  | { readonly kind: 'expired' }
  | { readonly kind: 'unknown' };

/** `pending` until the user approves or denies it on the verification page. */
export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied';

/** One RFC 8628 device authorization request. */
export interface DeviceAuthorizationRecord {
  readonly id: string;
  /** SHA-256 (hex) of the device code; the code itself is never stored. */
  readonly deviceCodeHash: string;
  /** Stored form: eight letters without the dash. */
  readonly userCode: string;
  readonly clientId: string | null;
  readonly status: DeviceAuthorizationStatus;
  /** The approving account (set on approval). */
  readonly accountId: string | null;
  /** The polling interval in seconds (grows by 5 with each `slow_down`). */
  readonly intervalSeconds: number;
  readonly lastPolledAt: Date | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** When the device code was exchanged for tokens (it can be exchanged once). */
  readonly exchangedAt: Date | null;
}

/** What {@link AuthRepository.createDeviceAuthorization} needs. */
export interface NewDeviceAuthorization {
  readonly deviceCodeHash: string;
  readonly userCode: string;
  readonly clientId: string | null;
  readonly intervalSeconds: number;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** The outcome the verification page records. */
export type DeviceDecision = { readonly status: 'approved'; readonly accountId: string } | { readonly status: 'denied' };

/**
 * Storage of accounts, sessions (refresh-token families), device authorizations and the auth
 * module's secrets. The routes use only this interface, implemented by `SqliteAuthRepository` and
 * `PostgresAuthRepository`. Methods that must be atomic say so; an implementation runs each in one
 * transaction (or one statement), so several registry instances on one database agree.
 */
export interface AuthRepository {
  /** Creates an account; `null` when the username is taken (case-insensitively). */
  createAccount(account: NewAccount): Promise<AccountRecord | null>;
  findAccountById(id: string): Promise<AccountRecord | null>;
  /** Looks a username up case-insensitively. */
  findAccountByUsername(username: string): Promise<AccountRecord | null>;
  /** Replaces the password hash of an account of kind `user` (rehash with a new cost after a login); an `api` account never gets one. */
  setPasswordHash(accountId: string, passwordHash: string): Promise<void>;
  /**
   * The account named `username`, created without a password as `kind` when missing (atomic). An
   * existing account is returned whatever its kind: the caller checks it (`isApiKeyAccount`).
   */
  ensureAccount(username: string, kind: AccountKind, now: Date): Promise<AccountRecord>;

  /** Starts a session with its first refresh token. */
  createSession(session: NewSession): Promise<SessionRecord>;
  findSession(id: string): Promise<SessionRecord | null>;
  /** The session a refresh token belongs to (spent or not), or `null`. */
  findSessionByRefreshToken(tokenHash: string): Promise<SessionRecord | null>;
  /**
   * Presents a refresh token (atomic): when it is the family's current token, marks it spent and
   * adds `nextTokenHash` (expiring with the session); when it was spent before, revokes the family.
   */
  rotateRefreshToken(tokenHash: string, nextTokenHash: string, now: Date): Promise<RefreshOutcome>;
  /** Revokes a session and every refresh token of its family. */
  revokeSession(id: string, now: Date): Promise<void>;

  /** Records a device authorization request; `null` when its user code is already in use (pick another). */
  createDeviceAuthorization(request: NewDeviceAuthorization): Promise<DeviceAuthorizationRecord | null>;
  findDeviceAuthorizationByDeviceCode(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null>;
  findDeviceAuthorizationByUserCode(userCode: string): Promise<DeviceAuthorizationRecord | null>;
  /** Records a poll at `now` and the interval the client must keep from now on. */
  recordDevicePoll(id: string, now: Date, intervalSeconds: number): Promise<void>;
  /** Approves or denies a request that is still pending and unexpired at `now` (atomic); false otherwise. */
  decideDeviceAuthorization(id: string, decision: DeviceDecision, now: Date): Promise<boolean>;
  /** Marks an approved request exchanged (atomic); false when it was exchanged already or is not approved. */
  markDeviceAuthorizationExchanged(id: string, now: Date): Promise<boolean>;

  /** The secret stored under `name`, stored from `generate()` the first time (atomic: every caller gets the same value). */
  secret(name: string, generate: () => string): Promise<string>;
  /** Deletes expired sessions (with their refresh tokens) and expired device authorizations. */
  deleteExpired(now: Date): Promise<void>;
}
