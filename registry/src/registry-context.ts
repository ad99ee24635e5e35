import type { BackendLogger } from '@plughost/backend-kit';
import type { BlobStore } from './storage/blob-store.js';
import type { RegistryStore } from './storage/registry-store.js';

/** A publisher API key for CI (`REGISTRY_API_KEYS` entries are `<username>:<key>`). */
export interface PublisherApiKey {
  /**
   * The name of the API-key account the key acts as: an account of its own, created on start
   * without a password, which registration and password login never reach. The name of an account
   * registered with a password is refused at start.
   */
  readonly username: string;
  /** At least 32 characters of visible ASCII (`openssl rand -hex 32`); shorter keys are refused at start. */
  readonly key: string;
}

/** Options of `createRegistry`. */
export interface RegistryOptions {
  /**
   * `REGISTRY_DATA`: the SQLite file `registry.db` (unless {@link RegistryOptions.databaseUrl} names
   * PostgreSQL), the package files `packages/` (unless {@link RegistryOptions.blobStore} is given)
   * and the work folder of uploads `tmp/`. Several instances of one store share the package files:
   * mount one volume as every instance's `packages/` (or give them all the same folder).
   */
  readonly dataDirectory: string;
  /**
   * `REGISTRY_DATABASE_URL`: a `postgres://` or `postgresql://` URL puts the records in that
   * PostgreSQL database, which several registry instances can share; unset, the embedded SQLite
   * file `<dataDirectory>/registry.db`. Any other URL is refused at start.
   */
  readonly databaseUrl?: string;
  /**
   * `REGISTRY_DATABASE_POOL_SIZE`: the most PostgreSQL connections this instance holds (default
   * 10; 1 to 1000). Instances times pool size must stay below the server's `max_connections`.
   */
  readonly databasePoolSize?: number;
  /**
   * Where package files live; default a `FileBlobStore` in `<dataDirectory>/packages/`. Implement
   * `BlobStore` to keep them in an object store shared by every instance.
   */
  readonly blobStore?: BlobStore;
  /** The store root's private key (PKCS#8 PEM or base64 of the 32-byte seed): certifies developer keys, signs revocation lists. No default. */
  readonly rootPrivateKey: string;
  /**
   * `REGISTRY_PUBLIC_URL`: the API root clients reach (`https://store.example.com/api/v1`), written
   * into every absolute URL the registry hands out (`GET /registry`'s `baseUrl`, download `url`,
   * `verification_uri`, review-queue `packageUrl`). Default: `http://<address>:<port>/api/v1` of the
   * loopback address and port the server is bound to. Never taken from the request's `Host`.
   * Required when {@link RegistryOptions.host} is not a loopback address.
   */
  readonly publicUrl?: string;
  /** @deprecated Use {@link RegistryOptions.publicUrl}; the same setting under its earlier name. */
  readonly baseUrl?: string;
  /**
   * `REGISTRY_HOST`: the address the embedding app binds. When given and not a loopback address,
   * `createRegistry` fails unless `publicUrl` is set. (A connection arriving on a non-loopback
   * address of a registry without a public URL is answered 500 either way.)
   */
  readonly host?: string;
  /**
   * `REGISTRY_TRUSTED_PROXIES`: reverse proxies (addresses or CIDRs, e.g. `10.0.0.0/8`) whose
   * `X-Forwarded-For` gives the client address; default none, so the connection's peer is the
   * client. The client address drives rate limits, login throttling and telemetry reporter networks.
   */
  readonly trustedProxies?: readonly string[];
  /** Package download mirror domains announced in `GET /registry`. */
  readonly mirrors?: readonly string[];
  /** `REGISTRY_API_KEYS`: publisher API keys for CI, each acting as an API-key account of its own. */
  readonly apiKeys?: readonly PublisherApiKey[];
  /** `REGISTRY_ADMIN_KEY`: bearer key of `/admin/*`; without it the admin routes answer 403. */
  readonly adminKey?: string;
  /**
   * `PLUGIN_ERROR_PAUSE_THRESHOLD`: a version reported by more distinct reporter networks (IPv4 /24,
   * IPv6 /48) than this in 24 hours, each of which listed it in a check-updates the day it
   * reported, and by more than 2 % of its installed base, is withheld from update suggestions
   * (default 10; decisions section 12).
   */
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
  /** The records (catalog, accounts, publishing, shared rate limits) on SQLite or PostgreSQL. */
  readonly store: RegistryStore;
  readonly blobs: BlobStore;
  readonly logger: BackendLogger;
  now(): Date;
}
