/**
 * pluginctl's store client: the API base, HTTP calls with timeouts and clear errors, saved
 * sessions per store (decisions 10) and the device-flow login (RFC 8628).
 */
export { requireStoreApi, resolveStoreApi } from './store-api.js';
export { StoreError, storeCall, storeFetch, storeFailure, storeCodeOf, stringFieldOf, STORE_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from './store-http.js';
export type { StoreRequest, StoreResponse } from './store-http.js';
export { SESSION_LIFETIME_MS, SessionStore, sessionsPath, type StoredSession } from './sessions.js';
export { parseTokenResponse, sessionFrom, type TokenResponse } from './tokens.js';
export { CLIENT_ID, DEVICE_CODE_GRANT_TYPE, defaultDeviceFlowIo, deviceLogin, isSameOrigin, openInBrowser, type DeviceFlowIo } from './device-flow.js';
export { apiKeyFromEnv, existingCredential, freshSession, type StoreCredential } from './credentials.js';
export { lookUpDeveloperKey, type DeveloperKeyLookup } from './developer-key-status.js';
