/**
 * `startHarness` from its sources with the real stub backend, the real hot reloaders and the real
 * page bundle (built as rollup builds it into the pluginctl file), on free loopback ports in a
 * temporary launcher tree: the page and its files, `/api/*` forwarded to the stub (a simulated
 * stream included), the build events and their snapshot, plugins added while it runs.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEventStream } from '@plughost/host-sdk/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type HarnessPageConfig, type RunningHarness } from '../../../pluginctl/src/harness/index.js';
import { readDevEvents, waitFor } from './dev-support.js';

// The bundled page files come from a module rollup makes; here they are built from the sources.
vi.mock('../../../pluginctl/src/harness/assets.js', async () => (await import('../../support/harness-assets.js')).harnessAssetsModule());

const ALPHA = 'com.example.alpha';
const BETA = 'com.example.beta';
const BUILT = 'com.example.built';

let root: string;
let harness: RunningHarness;
const logged: string[] = [];

function manifest(id: string): string {
  return JSON.stringify({
    id,
    name: `Plugin ${id.split('.').pop()}`,
    version: '0.1.0',
    minLauncherVersion: '0.1.0',
    layers: ['l2'],
    permissions: ['config:read', 'config:write'],
    entry: { frontend: 'index.html' },
  });
}

async function writePlugin(id: string, files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, 'plugins-dev', id);
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'index.html'), `<!doctype html><h1>${id}</h1>`);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  // The manifest last: a folder counts as a plugin once it has one.
  await writeFile(join(dir, 'manifest.json'), manifest(id));
  return dir;
}

/** The settings the page embeds (`<script type="application/json" id="harness-config">`). */
function pageConfig(html: string): HarnessPageConfig {
  const json = /<script type="application\/json" id="harness-config">(.*?)<\/script>/s.exec(html)?.[1];
  if (json === undefined) throw new Error(`no harness-config in the page:\n${html}`);
  return JSON.parse(json) as HarnessPageConfig;
}

/** `GET path` with a `Host` header of the test's choosing (fetch does not let one set it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harness-server-'));
  await writePlugin(ALPHA);
  // A plugin with a build of its own (`npm run build` runs `node build.mjs`), which fails while
  // src/main.js says BROKEN, printing coloured output and markup.
  await writePlugin(BUILT, {
    'package.json': JSON.stringify({ name: 'built', private: true, scripts: { build: 'node build.mjs' } }),
    'build.mjs': [
      "import { readFileSync } from 'node:fs';",
      "if (readFileSync('src/main.js', 'utf8').includes('BROKEN')) {",
      "  console.error('\\u001b[31mError:\\u001b[0m src/main.js is broken </script><b>not markup</b>');",
      '  process.exit(1);',
      '}',
    ].join('\n'),
    'src/main.js': 'export const ok = true;\n',
  });
  harness = await startHarness({
    root,
    stubPort: 0,
    harnessPort: 0,
    mock: { settings: { [ALPHA]: { greeting: 'from the mock' } } },
    mockFile: 'mock.json',
    log: (line) => logged.push(line),
  });
}, 60_000);

afterAll(async () => {
  await harness?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('the harness server', () => {
  it('serves the page with the stub address, the mock and the builds so far', async () => {
    expect(harness.harnessUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(harness.stubUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(harness.harnessUrl).not.toContain(`:${new URL(harness.stubUrl).port}/`);
    const response = await fetch(harness.harnessUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).toContain('<meta name="color-scheme" content="light dark" />');
    expect(html).toContain('<script type="module" src="/__pluginctl/harness.js"></script>');
    const config = pageConfig(html);
    expect(config).toMatchObject({ stubUrl: harness.stubUrl, mockFile: 'mock.json', mockKeys: ['settings'] });
    // startHarness resolves after every plugin's first build; the one with a build script has built.
    expect(config.builds).toEqual([expect.objectContaining({ type: 'rebuilt', pluginId: BUILT })]);
  });

  it('serves the page bundle, its stylesheet and the guest runtime', async () => {
    const files = [
      ['/__pluginctl/harness.js', 'text/javascript; charset=utf-8', 'harness-app'],
      ['/__pluginctl/harness.css', 'text/css; charset=utf-8', 'color-scheme'],
      ['/__pluginctl/guest-runtime.js', 'text/javascript; charset=utf-8', '__PLUGIN_API__'],
    ] as const;
    for (const [path, type, text] of files) {
      const response = await fetch(new URL(path, harness.harnessUrl));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(await response.text(), path).toContain(text);
    }
    const head = await fetch(new URL('/__pluginctl/harness.js', harness.harnessUrl), { method: 'HEAD' });
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(50_000);
    expect(await head.text()).toBe('');
  });

  it('forwards /api/* to the stub: the plugin list, settings from the mock, writes and read-only refusals', async () => {
    const api = (path: string, init: RequestInit = {}) =>
      fetch(new URL(`/api${path}`, harness.harnessUrl), {
        ...init,
        headers: { Authorization: 'Bearer harness-test', 'Content-Type': 'application/json', ...init.headers },
      });
    const listed = (await (await api('/plugins/')).json()) as { id: string; status: string }[];
    expect(listed.map(({ id, status }) => ({ id, status }))).toEqual([
      { id: ALPHA, status: 'active' },
      { id: BUILT, status: 'active' },
    ]);
    expect(await (await api(`/plugins/settings/${ALPHA}`)).json()).toEqual({ greeting: 'from the mock' });
    const written = await api(`/plugins/settings/${ALPHA}`, { method: 'POST', body: JSON.stringify({ key: 'count', value: 2 }) });
    expect(await written.json()).toEqual({ greeting: 'from the mock', count: 2 });
    const file = await fetch(new URL(`/api/plugins/${ALPHA}/files/index.html`, harness.harnessUrl));
    expect(await file.text()).toBe(`<!doctype html><h1>${ALPHA}</h1>`);
    const upload = await api('/plugins/upload', { method: 'POST', body: '{}' });
    expect(upload.status).toBe(400);
    expect(((await upload.json()) as { error: { code: string } }).error.code).toBe('HARNESS_READONLY');
    expect((await api('/plugins/')).status).toBe(200);
    expect((await fetch(new URL('/api/plugins/', harness.harnessUrl))).status).toBe(401);
  });

  it('forwards the stub proxy simulated stream as a stream', async () => {
    const response = await fetch(new URL('/api/plugins/proxy', harness.harnessUrl), {
      method: 'POST',
      headers: { Authorization: 'Bearer harness-test', 'Content-Type': 'application/json', 'X-Plugin-Id': ALPHA },
      body: JSON.stringify({ url: 'https://example.com/stream', method: 'GET', stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const chunks: string[] = [];
    for await (const event of readEventStream(response.body!)) chunks.push(event.data);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.at(-1)).toBe('[DONE]');
  });

  it('answers only its own host names, and 404 outside its pages', async () => {
    const port = new URL(harness.harnessUrl).port;
    expect((await getWithHost(harness.harnessUrl, `evil.example:${port}`)).status).toBe(403);
    expect((await getWithHost(new URL('/api/health', harness.harnessUrl).href, `evil.example:${port}`)).status).toBe(403);
    expect((await getWithHost(harness.harnessUrl, `localhost:${port}`)).status).toBe(200);
    const missing = await fetch(new URL('/nothing-here', harness.harnessUrl));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect((await fetch(harness.harnessUrl, { method: 'POST' })).status).toBe(405);
  });

  it('streams build events: a changed page without a build is reloaded at once, a failed build carries its output', async () => {
    const events = await readDevEvents(harness.harnessUrl);
    try {
      expect(await events.next()).toEqual({ type: 'hello', pluginIds: [ALPHA, BUILT] });

      await writeFile(join(root, 'plugins-dev', ALPHA, 'index.html'), '<!doctype html><h1>changed</h1>');
      expect(await events.next()).toMatchObject({ type: 'rebuilt', pluginId: ALPHA, durationMs: 0 });

      await writeFile(join(root, 'plugins-dev', BUILT, 'src/main.js'), 'BROKEN\n');
      expect(await events.next()).toMatchObject({ type: 'building', pluginId: BUILT });
      const failed = await events.next();
      expect(failed).toMatchObject({ type: 'build-failed', pluginId: BUILT });
      expect(failed.type === 'build-failed' && failed.output).toContain('src/main.js is broken');

      // A page opened now shows the failure (its markup inert in the page's JSON)...
      const html = await (await fetch(harness.harnessUrl)).text();
      expect(html).not.toContain('</script><b>');
      expect(pageConfig(html).builds).toContainEqual(
        expect.objectContaining({ type: 'build-failed', pluginId: BUILT, output: failed.type === 'build-failed' ? failed.output : '' }),
      );
      // ...and so does the snapshot a page reads when its stream reconnects.
      const snapshot = (await (await fetch(new URL('/__pluginctl/builds', harness.harnessUrl))).json()) as { type: string; pluginId: string }[];
      expect(snapshot.map(({ type, pluginId }) => `${pluginId}:${type}`).sort()).toEqual([`${ALPHA}:rebuilt`, `${BUILT}:build-failed`]);

      await writeFile(join(root, 'plugins-dev', BUILT, 'src/main.js'), 'export const ok = "again";\n');
      expect(await events.next()).toMatchObject({ type: 'building', pluginId: BUILT });
      expect(await events.next()).toMatchObject({ type: 'rebuilt', pluginId: BUILT });
    } finally {
      events.close();
    }
  });

  it('picks up a plugin added to plugins-dev/ while it runs, and one removed', async () => {
    const events = await readDevEvents(harness.harnessUrl);
    try {
      expect(await events.next()).toMatchObject({ type: 'hello' });
      await writePlugin(BETA);
      expect(await events.next()).toEqual({ type: 'hello', pluginIds: [ALPHA, BETA, BUILT] });
      await waitFor(() => logged.includes(`${BETA}: added to plugins-dev/`), 'the log line of the added plugin');
      // Its reloader watches it: a change reloads it.
      await writeFile(join(root, 'plugins-dev', BETA, 'index.html'), '<!doctype html><h1>beta 2</h1>');
      expect(await events.next()).toMatchObject({ type: 'rebuilt', pluginId: BETA });

      // Its watcher may see the files go (and report a change) before the listing notices the folder went.
      const hellos = () => events.received.filter((event) => event.type === 'hello');
      await rm(join(root, 'plugins-dev', BETA), { recursive: true });
      await waitFor(() => hellos().length === 3, 'the hello after the removal');
      expect(hellos()[2]).toEqual({ type: 'hello', pluginIds: [ALPHA, BUILT] });
      await waitFor(() => logged.includes(`${BETA}: removed from plugins-dev/`), 'the log line of the removed plugin');
    } finally {
      events.close();
    }
  });
});

describe('closing the harness', () => {
  it('stops both servers and ends open event streams', async () => {
    const second = await startHarness({ root, stubPort: 0, harnessPort: 0, log: () => undefined });
    const events = await readDevEvents(second.harnessUrl);
    expect(await events.next()).toMatchObject({ type: 'hello' });
    await second.close();
    await expect(events.next()).rejects.toThrow('The event stream ended');
    await expect(fetch(second.harnessUrl)).rejects.toThrow();
    await expect(fetch(`${second.stubUrl}/api/health`)).rejects.toThrow();
  });
});
