/**
 * The debug harness's stub backend: `startStubBackend` serves every local backend route from
 * `plugins-dev/`, memory and fixed data; `loadMockFile` reads the `--mock` file that overrides its
 * answers. Reference: `docs/debug-harness-stub.md`.
 */
export { loadMockFile } from './load-mock-file.js';
export { MOCK_KEYS } from './mock-overrides.js';
export type {
  MockDownloadProgress,
  MockErrorAnswer,
  MockFileContent,
  MockOverrides,
  MockProxyResponse,
} from './mock-overrides.js';
export { PLUGINS_DEV_FOLDER } from './plugin-catalog.js';
export { startStubBackend } from './stub-backend.js';
export type { RunningServer, StubBackendOptions } from './stub-backend.js';
