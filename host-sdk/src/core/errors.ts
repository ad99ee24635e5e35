/**
 * The one error vocabulary of the SDK. Every HTTP error body, every package and manifest problem
 * and every bridge rejection carries one of these codes. Changing a code is a breaking change;
 * changing a message is not.
 */
export const ErrorCode = {
  /** A request or argument is malformed. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The archive is not a usable plugin package (no root manifest, duplicates, corrupt zip). */
  INVALID_PACKAGE: 'INVALID_PACKAGE',
  /** An archive entry path could escape or confuse the install folder. */
  UNSAFE_ENTRY_PATH: 'UNSAFE_ENTRY_PATH',
  /** The package or one of its entries exceeds a configured size or count limit. */
  PACKAGE_TOO_LARGE: 'PACKAGE_TOO_LARGE',
  /** A request body other than a package upload exceeds its size limit. */
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  /** `manifest.json` is not valid JSON or breaks a manifest rule. */
  INVALID_MANIFEST: 'INVALID_MANIFEST',
  /** The package signature or its certificate is missing, malformed or does not verify. */
  SIGNATURE_INVALID: 'SIGNATURE_INVALID',
  /** An overwrite install is signed by a different developer than the installed version. */
  SIGNER_CHANGED: 'SIGNER_CHANGED',
  /** An overwrite install would replace a newer version with an older one without `allowDowngrade`. */
  DOWNGRADE_REFUSED: 'DOWNGRADE_REFUSED',
  /** A required dependency is not installed or its version does not satisfy the range. */
  DEPENDENCY_MISSING: 'DEPENDENCY_MISSING',
  /** Dependencies form a cycle, so no activation order exists. */
  DEPENDENCY_CYCLE: 'DEPENDENCY_CYCLE',
  /** No installed plugin has this id (or, for a store install, the store has no such published plugin or version). */
  PLUGIN_NOT_FOUND: 'PLUGIN_NOT_FOUND',
  /** The plugin is installed but not enabled (disabled, or paused by the store), so the host does not activate it. */
  PLUGIN_NOT_ENABLED: 'PLUGIN_NOT_ENABLED',
  /** The plugin is not running in this host: not activated, stopped while it loaded, or no longer answering. */
  PLUGIN_NOT_RUNNING: 'PLUGIN_NOT_RUNNING',
  /** A plugin's manifest, page or file could not be loaded, or its frame could not be created. */
  PLUGIN_LOAD_FAILED: 'PLUGIN_LOAD_FAILED',
  /** A plugin did not connect or answer within its time limit. */
  PLUGIN_TIMEOUT: 'PLUGIN_TIMEOUT',
  /** Rollback was asked for but no snapshot exists. */
  ROLLBACK_NOT_AVAILABLE: 'ROLLBACK_NOT_AVAILABLE',
  /** Missing or wrong bearer token. */
  UNAUTHORIZED: 'UNAUTHORIZED',
  /** The Host header names a host this backend does not serve (DNS-rebinding guard). */
  HOST_NOT_ALLOWED: 'HOST_NOT_ALLOWED',
  /** A page that carries the API token was asked for by a peer that is not on this machine. */
  REMOTE_PEER_NOT_ALLOWED: 'REMOTE_PEER_NOT_ALLOWED',
  /** The route or file does not exist. */
  NOT_FOUND: 'NOT_FOUND',
  /** The route exists but not for this HTTP method (the `Allow` header lists the methods). */
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  /** A proxy or download target resolves to a private, loopback or reserved address (SSRF guard). */
  PROXY_PRIVATE_ADDRESS: 'PROXY_PRIVATE_ADDRESS',
  /** The upstream server could not be reached or broke the connection. */
  PROXY_UPSTREAM_FAILED: 'PROXY_UPSTREAM_FAILED',
  /** The upstream server did not answer within `timeoutMs`. */
  PROXY_TIMEOUT: 'PROXY_TIMEOUT',
  /** A buffered upstream body exceeds the proxy's size limit. */
  PROXY_BODY_TOO_LARGE: 'PROXY_BODY_TOO_LARGE',
  /** The path is not yet authorized for the plugin; the body's `prefix` is the folder to ask about. */
  FS_AUTHORIZATION_REQUIRED: 'FS_AUTHORIZATION_REQUIRED',
  /** The path lies in a place file APIs never reach (`/proc`, `/sys`, `/dev`, the launcher's data directory), whatever was consented. */
  FS_PATH_FORBIDDEN: 'FS_PATH_FORBIDDEN',
  /** Read or delete of a file that does not exist (or is a folder). */
  FS_FILE_NOT_FOUND: 'FS_FILE_NOT_FOUND',
  /** A shell command ran longer than its timeout; its whole process tree was killed. */
  SHELL_TIMEOUT: 'SHELL_TIMEOUT',
  /** The shell command is empty. */
  SHELL_COMMAND_REQUIRED: 'SHELL_COMMAND_REQUIRED',
  /** The plugin has no loaded WASM module (not installed, no `l3`, no `wasm:execute`, or no `plugin.wasm`). */
  WASM_NOT_LOADED: 'WASM_NOT_LOADED',
  /** The WASM module has no such export, or it is not a function. */
  WASM_EXPORT_NOT_FOUND: 'WASM_EXPORT_NOT_FOUND',
  /** The WASM call trapped (unreachable, out-of-bounds memory, ...). */
  WASM_TRAP: 'WASM_TRAP',
  /** The WASM call ran longer than its time limit and was stopped. */
  WASM_TIMEOUT: 'WASM_TIMEOUT',
  /** A WASM call went past a resource limit (linear memory, concurrent invocations of one plugin). */
  WASM_LIMIT_EXCEEDED: 'WASM_LIMIT_EXCEEDED',
  /** The plugin already has the most running and queued download tasks it may have. */
  DOWNLOAD_QUEUE_FULL: 'DOWNLOAD_QUEUE_FULL',
  /** A download task id that does not exist or belongs to another plugin. */
  DOWNLOAD_NOT_FOUND: 'DOWNLOAD_NOT_FOUND',
  /** A downloaded file's size or hash differs from what its source declared; the file was not kept. */
  DOWNLOAD_INTEGRITY_FAILED: 'DOWNLOAD_INTEGRITY_FAILED',
  /** No launcher instance has this id. */
  INSTANCE_NOT_FOUND: 'INSTANCE_NOT_FOUND',
  /** Modpack install without an instance name (`id`). */
  MODPACK_NAME_REQUIRED: 'MODPACK_NAME_REQUIRED',
  /** Modpack install without a game directory (`gameDir`). */
  MODPACK_GAME_DIR_REQUIRED: 'MODPACK_GAME_DIR_REQUIRED',
  /** The local modpack file (`path`) does not exist or is not a file. */
  MODPACK_FILE_NOT_FOUND: 'MODPACK_FILE_NOT_FOUND',
  /** Neither a local `path` nor an online `type` was given. */
  MODPACK_SOURCE_REQUIRED: 'MODPACK_SOURCE_REQUIRED',
  /** The source is malformed: unknown `type`, missing ids, both sources, a wrong file type, or a pack that cannot be read. */
  MODPACK_SOURCE_INVALID: 'MODPACK_SOURCE_INVALID',
  /** A store install was asked for but the backend has no store (`storeUrl`) configured. */
  STORE_NOT_CONFIGURED: 'STORE_NOT_CONFIGURED',
  /** The store (registry) failed, could not be reached, or answered something unusable. */
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  /** The package bytes failed the store's SHA-256 or size on every download source; nothing was kept. */
  STORE_PACKAGE_MISMATCH: 'STORE_PACKAGE_MISMATCH',
  /** An update or overwrite asks for permissions the user has not accepted; the body's `added` lists them. Nothing was installed. */
  CONSENT_REQUIRED: 'CONSENT_REQUIRED',
  /** A store package is not the plugin or version the store listing named; nothing was installed. */
  STORE_LISTING_MISMATCH: 'STORE_LISTING_MISMATCH',
  /** A store install's `sha256` is not the package the store serves now (it changed since the install dialog was shown). */
  STORE_PACKAGE_CHANGED: 'STORE_PACKAGE_CHANGED',
  /** Consent fields (`acceptPermissions`, `allowUnsigned`) came from a plugin: only the launcher page may give them. */
  CONSENT_NOT_FROM_PLUGIN: 'CONSENT_NOT_FROM_PLUGIN',
  /** The system could not open a URL in the user's browser (no opener, no default browser, or the opener failed). */
  URL_OPEN_FAILED: 'URL_OPEN_FAILED',
  /** A write (upload, install) was sent to the debug harness's stub backend, which is read-only. */
  HARNESS_READONLY: 'HARNESS_READONLY',
  /** Anything unexpected; details are logged, never sent. */
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;

/** A stable error code of the SDK. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Extra, serializable facts about an error (for example the offending entry path). */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/**
 * The error class thrown across the SDK. Check errors with {@link isPluginHostError} (by name and
 * code) rather than `instanceof`: plugin frames are separate realms.
 */
export class PluginHostError extends Error {
  override readonly name = 'PluginHostError';
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** True when `value` looks like a {@link PluginHostError}, whichever realm created it. */
export function isPluginHostError(value: unknown, code?: ErrorCode): value is PluginHostError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { name?: unknown; code?: unknown };
  return candidate.name === 'PluginHostError' && typeof candidate.code === 'string' && (code === undefined || candidate.code === code);
}

/**
 * An error as words for the launcher's user: its message, followed by the backend's own
 * explanation when a failed backend call carried one (`details.reason`; the message itself stays
 * the specification's `Backend error: <status>`, decisions 3). For toasts, banners and dialogs.
 *
 * @example
 * ```ts
 * toasts.show(describeError(error), 'error'); // "Backend error: 409: the package's signer changed"
 * ```
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const reason = (error as { details?: { reason?: unknown } }).details?.reason;
  return typeof reason === 'string' && reason !== '' ? `${error.message}: ${reason}` : error.message;
}
