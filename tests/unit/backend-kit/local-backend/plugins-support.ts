/**
 * Helpers of the plugin lifecycle route tests: a fresh backend and scratch folder per test,
 * packages and development folders on disk, uploads through real multipart requests, and error
 * bodies.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';
import { DEFAULT_FILES, sampleManifest, writePluginPackage, type PackageSpec } from '../../../support/plugin-package.js';

/** A temporary folder for packages and development folders, outside every data folder. */
export async function scratchFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'plugins-test-'));
}

/** Removes a scratch folder. */
export async function removeFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
}

/** What {@link backendWithScratch} gives each test. */
export interface BackendFixture {
  /**
   * The running backend of the current test. A test that restarts it closes this one and assigns
   * the new one here, so that the fixture closes whichever runs at the end.
   */
  backend: TestBackend;
  /** The current test's scratch folder. */
  readonly scratch: string;
}

/**
 * Gives every test of the calling `describe` its own backend (started with `options`) and scratch
 * folder, and closes and removes both after it. Call it in the `describe` body; a `beforeEach`
 * registered after it runs once both exist.
 *
 * @example
 * const fixture = backendWithScratch({ keys });
 * it('uploads', async () => {
 *   await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys }));
 * });
 */
export function backendWithScratch(options?: TestBackendOptions): BackendFixture {
  let backend: TestBackend | undefined;
  let scratch: string | undefined;

  beforeEach(async () => {
    backend = await startTestBackend(options);
    scratch = await scratchFolder();
  });

  afterEach(async () => {
    // A failed start leaves nothing to close; reporting that here would hide the start's error.
    await backend?.close();
    if (scratch !== undefined) await removeFolder(scratch);
    backend = undefined;
    scratch = undefined;
  });

  return {
    get backend(): TestBackend {
      if (backend === undefined) throw new Error('backendWithScratch: the backend exists only while a test runs');
      return backend;
    },
    set backend(next: TestBackend) {
      backend = next;
    },
    get scratch(): string {
      if (scratch === undefined) throw new Error('backendWithScratch: the scratch folder exists only while a test runs');
      return scratch;
    },
  };
}

/** Something a test started and must stop: a backend, a store, a small HTTP server. */
export interface Closable {
  close(): Promise<void>;
}

/** What {@link scratchWithCleanups} gives each test. */
export interface ScratchFixture {
  /** The current test's scratch folder. */
  readonly scratch: string;
  /** Closes `started` after the current test (the latest first, before the scratch folder goes) and returns it. */
  closeAfterTest<T extends Closable>(started: T): T;
}

/**
 * Gives every test of the calling `describe` its own scratch folder, for tests that start their
 * own backends and servers; what they hand to `closeAfterTest` is closed after the test, the
 * latest first, then the folder is removed.
 *
 * @example
 * const fixture = scratchWithCleanups();
 * it('installs from the store', async () => {
 *   const backend = fixture.closeAfterTest(await startTestBackend({ keys, storeUrl }));
 * });
 */
export function scratchWithCleanups(): ScratchFixture {
  let scratch: string | undefined;
  const cleanups: Closable[] = [];

  beforeEach(async () => {
    scratch = await scratchFolder();
  });

  afterEach(async () => {
    for (const started of cleanups.splice(0).reverse()) await started.close();
    if (scratch !== undefined) await removeFolder(scratch);
    scratch = undefined;
  });

  return {
    get scratch(): string {
      if (scratch === undefined) throw new Error('scratchWithCleanups: the scratch folder exists only while a test runs');
      return scratch;
    },
    closeAfterTest(started) {
      cleanups.push(started);
      return started;
    },
  };
}

let counter = 0;

/** Writes a package into `folder` and returns its path. */
export async function packageFile(folder: string, spec: PackageSpec): Promise<string> {
  const path = join(folder, `package-${++counter}.plugpkg`);
  await writePluginPackage(path, spec);
  return path;
}

/** A package of `com.example.hello` at `version`, signed with `keys`, whose script says `marker`. */
export function versionSpec(version: string, keys: PackageSpec['keys'], marker = version): PackageSpec {
  return {
    manifest: sampleManifest({ version }),
    files: { ...DEFAULT_FILES, 'dist/main.js': `console.log(${JSON.stringify(marker)});\n` },
    ...(keys ? { keys } : {}),
  };
}

/** POSTs `path` as the multipart field `field` (default `plugin`) to `/api/plugins/<route>`. */
export async function postPackage(
  backend: TestBackend,
  path: string,
  options: { route?: 'upload' | 'inspect'; query?: string; field?: string } = {},
): Promise<Response> {
  const form = new FormData();
  form.append(options.field ?? 'plugin', new Blob([await readFile(path)]), 'plugin.plugpkg');
  return backend.api(`/api/plugins/${options.route ?? 'upload'}${options.query ?? ''}`, { method: 'POST', body: form });
}

/** The parsed JSON body of a response with the expected status (the body is shown when it differs). */
export async function jsonOf<T = Record<string, unknown>>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`Expected ${status}, got ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** The `error` object of an error response with the expected status. */
export async function errorOf(response: Response, status: number): Promise<{ code: string; message: string; [key: string]: unknown }> {
  return (await jsonOf<{ error: { code: string; message: string } }>(response, status)).error;
}

/** Writes a development folder: `manifest.json` plus `files` (default a page and a script). */
export async function developmentFolder(root: string, manifest: Record<string, unknown>, files: Record<string, string> = DEFAULT_FILES): Promise<string> {
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'manifest.json'), JSON.stringify(manifest, null, 2));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
  return root;
}

/** The names in `plugins/` of a backend's data folder, sorted. */
export async function pluginsFolder(backend: TestBackend): Promise<string[]> {
  return (await readdir(join(backend.dataDirectory, 'plugins'))).sort();
}

/** A file of an installed plugin (or snapshot) folder, as text. */
export async function pluginText(backend: TestBackend, folder: string, path: string): Promise<string> {
  return readFile(join(backend.dataDirectory, 'plugins', folder, path), 'utf8');
}

/** What the backend left in `backend/tmp/`. */
export async function temporaryLeftovers(backend: TestBackend): Promise<string[]> {
  return readdir(join(backend.dataDirectory, 'backend', 'tmp'));
}
