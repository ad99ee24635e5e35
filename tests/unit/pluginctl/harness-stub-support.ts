/**
 * Shared by the harness stub tests: a temporary tree with `plugins-dev/` holding real manifests and
 * files, a stub on port 0 over it, and HTTP helpers (`fetch` for ordinary calls, `node:http` for
 * request targets `fetch` would normalize, such as `..` segments, and for a forged `Host`).
 */
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type MockOverrides, type RunningServer, startStubBackend } from '../../../pluginctl/src/harness/stub/index.js';

/** The stub accepts any bearer token; this one is checked to never reach its log. */
export const TOKEN = 'harness-test-token-never-logged';
export const HELLO = 'com.example.hello';
export const OTHER = 'com.example.other';
export const THEME = 'com.example.theme';
/** Content of files outside the plugin folders: no answer may contain it. */
export const SECRET = 'TOP SECRET outside the plugin folder';

/** A manifest every check accepts. */
export function manifestOf(id: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `Plugin ${id}`,
    version: '1.2.3',
    minLauncherVersion: '0.1.0',
    description: 'A plugin of the harness stub tests.',
    author: 'pluginctl tests',
    license: 'MIT',
    layers: ['l2'],
    permissions: ['config:read', 'config:write'],
    entry: { frontend: 'index.html' },
    ...fields,
  };
}

/** Writes `plugins-dev/<id>/` with `manifest` and `files` (relative path → content). */
export async function writePlugin(root: string, folder: string, manifest: unknown, files: Record<string, string | Uint8Array> = {}): Promise<string> {
  const directory = join(root, 'plugins-dev', folder);
  await mkdir(directory, { recursive: true });
  if (manifest !== undefined)
    await writeFile(join(directory, 'manifest.json'), typeof manifest === 'string' ? manifest : `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(directory, path, '..'), { recursive: true });
    await writeFile(join(directory, path), content);
  }
  return directory;
}

/** A PNG header: enough bytes for a content-type check. */
export const PNG_BYTES = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/**
 * The tree of the tests: `hello` (a page, a script, an image, a link escaping the folder, a link
 * inside it, a `settings.json` the backend would never serve), `other` (a private file), `theme`
 * (no page: `installed`), and folders that are not plugins (an invalid manifest, a manifest of
 * another id, a name that is not an id, no manifest). A secret lies beside `plugins-dev/`.
 */
export async function writeHarnessTree(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'harness-stub-'));
  await writeFile(join(root, 'secret.txt'), SECRET);
  const hello = await writePlugin(root, HELLO, manifestOf(HELLO), {
    'index.html': '<!doctype html><title>Hello</title><script src="assets/app.js"></script>\n',
    'assets/app.js': 'console.log("hello from the harness");\n',
    'assets/logo.png': PNG_BYTES,
    'settings.json': JSON.stringify({ secret: SECRET }),
    'empty.txt': '',
  });
  await symlink(join(root, 'secret.txt'), join(hello, 'escape.txt'));
  await symlink(join(hello, 'assets', 'app.js'), join(hello, 'inner-link.js'));
  await symlink(join(root, 'plugins-dev', OTHER), join(hello, 'other-folder'));
  await writePlugin(root, OTHER, manifestOf(OTHER), { 'index.html': '<!doctype html><title>Other</title>\n', 'private.txt': SECRET });
  await writePlugin(root, THEME, manifestOf(THEME, { entry: { theme: 'theme.css' } }), { 'theme.css': ':root { --x: 1; }\n' });
  await writePlugin(root, 'com.example.broken', manifestOf('com.example.broken', { version: 'one' }));
  await writePlugin(root, 'com.example.mismatch', manifestOf('com.example.elsewhere'));
  await writePlugin(root, 'Not_An_Id', manifestOf('com.example.notanid'));
  await writePlugin(root, 'com.example.nomanifest', undefined, { 'index.html': '<p>no manifest</p>' });
  return root;
}

/** Every file and folder under `root` with its size and content hash: equal before and after means nothing was written. */
export async function snapshotTree(root: string): Promise<Record<string, string>> {
  const entries: Record<string, string> = {};
  async function walk(directory: string): Promise<void> {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      const key = relative(root, path);
      if (entry.isDirectory()) {
        entries[key] = 'folder';
        await walk(path);
      } else if (entry.isSymbolicLink()) {
        entries[key] = 'link';
      } else {
        const info = await stat(path);
        entries[key] = `${info.size}:${info.mtimeMs}:${createHash('sha256')
          .update(await readFile(path))
          .digest('hex')}`;
      }
    }
  }
  await walk(root);
  return entries;
}

/** A stub over `root` whose log lines are collected. */
export interface TestStub {
  readonly stub: RunningServer;
  readonly lines: string[];
  /** `fetch` on the stub with the bearer token (unless `headers` gives another `Authorization`). */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** POSTs `body` as JSON. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export async function startTestStub(root: string, mock?: MockOverrides): Promise<TestStub> {
  const lines: string[] = [];
  const stub = await startStubBackend({ root, port: 0, ...(mock ? { mock } : {}), log: (line) => lines.push(line) });
  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${stub.url}${path}`, { ...init, headers: { Authorization: `Bearer ${TOKEN}`, ...(init.headers as Record<string, string> | undefined) } });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    api(path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...headers } });
  return { stub, lines, api, post };
}

/** An answer read whole. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Sends a request with exactly this target and these headers (no URL normalization, any `Host`). */
export function rawRequest(port: number, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The `error` of a JSON error body. */
export async function errorOf(response: Response): Promise<{ code: string; message: string; [key: string]: unknown }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return body.error;
}

/** Removes the tree. */
export function removeTree(root: string): Promise<void> {
  return rm(root, { recursive: true, force: true });
}
