import type { BackendLogger } from '../http/logger.js';
import type { BlobStore } from './storage/blob-store.js';
import type { RegistryDatabase } from './storage/registry-database.js';

/** A publisher API key for CI (`REGISTRY_API_KEYS` entries are `<username>:<key>`). */
export interface PublisherApiKey {
  /** The account the key acts as (created on start when missing). */
  readonly username: string;
  readonly key: string;
}

/** Options of `createRegistry`. */
export interface RegistryOptions {
  /** `REGISTRY_DATA`: the SQLite file `registry.db` and the package files live here. */
  readonly dataDirectory: string;
  /** The store root's private key (PKCS#8 PEM or base64 of the 32-byte seed): certifies developer keys, signs revocation lists. No default. */
  readonly rootPrivateKey: string;
  /** The public API root written into `GET /registry` and download URLs (default: from each request, `<origin>/api/v1`). */
  readonly baseUrl?: string;
  /** Package download mirror domains announced in `GET /registry`. */
  readonly mirrors?: readonly string[];
  /** Publisher API keys for CI. */
  readonly apiKeys?: readonly PublisherApiKey[];
  /** `REGISTRY_ADMIN_KEY`: bearer key of `/admin/*`; without it the admin routes answer 403. */
  readonly adminKey?: string;
  /** `PLUGIN_ERROR_PAUSE_THRESHOLD`: more reports than this in 24 hours withhold a version from updates (default 10). */
  readonly pauseThreshold?: number;
  /** Telemetry intake limit per client address: `limit` reports per `windowMs` (default 120 a minute). */
  readonly telemetryRateLimit?: { readonly limit?: number; readonly windowMs?: number };
  /** Largest package upload in bytes (default 256 MiB). */
  readonly maxPackageBytes?: number;
  /** The clock (tests). */
  readonly now?: () => Date;
  readonly logger?: BackendLogger;
}

/** What every registry module shares. */
export interface RegistryContext {
  readonly options: RegistryOptions;
  readonly database: RegistryDatabase;
  readonly blobs: BlobStore;
  readonly logger: BackendLogger;
  now(): Date;
}
