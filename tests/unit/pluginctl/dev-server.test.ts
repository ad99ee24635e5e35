import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_PLUGINS_FILE_NAME } from '@plughost/host-sdk/core';
import { type RunningDevServer, startBareDevServer } from '../../../pluginctl/src/dev/bare-dev-server.js';
import { rawRequest } from '../../support/raw-http.js';
import { readDevEvents } from './dev-support.js';

const PLUGIN_ID = 'com.example.devserved';
const OTHER = { 'com.example.other': 'http://127.0.0.1:5999/' };

function manifest(frontend: string): Record<string, unknown> {
  return {
    id: PLUGIN_ID,
    name: 'Dev served',
    version: '1.0.0',
    minLauncherVersion: '0.1.0',
    description: 'Served by pluginctl dev.',
    author: 'pluginctl tests',
    license: 'MIT',
    layers: ['l2'],
    permissions: [],
    entry: { frontend },
    contributes: { menuItems: [{ path: frontend, label: 'Dev served', icon: 'icon-hand' }] },
  };
}

let root: string;
let project: string;
let home: string;
let server: RunningDevServer | undefined;
let logLines: string[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'pluginctl-dev-server-'));
  project = join(root, 'project');
  home = join(root, 'launcher-home');
  logLines = [];
  await mkdir(project);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(root, { recursive: true, force: true });
});

async function readDevPlugins(): Promise<unknown> {
  return JSON.parse(await readFile(join(home, DEV_PLUGINS_FILE_NAME), 'utf8'));
}

/** A plugin without a build: its page, a module, an image; sources and notes left out by .plugignore. */
async function writeStaticProject(): Promise<void> {
  await writeFile(join(project, 'manifest.json'), JSON.stringify(manifest('index.html'), null, 2));
  await writeFile(join(project, 'index.html'), '<!doctype html><script type="module" src="main.js"></script>');
  await writeFile(join(project, 'main.js'), 'console.log("hi");\n');
  await mkdir(join(project, 'assets'));
  await writeFile(join(project, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await mkdir(join(project, 'src'));
  await writeFile(join(project, 'src', 'secret.ts'), 'export const secret = 1;');
  await writeFile(join(project, 'notes.md'), 'private notes');
  await writeFile(join(project, '.env'), 'TOKEN=1');
  await writeFile(join(project, '.plugignore'), 'src/\nnotes.md\n');
  await mkdir(join(project, 'node_modules', 'dep'), { recursive: true });
  await writeFile(join(project, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;');
  await writeFile(join(root, 'outside.txt'), 'outside the project');
}

describe('startBareDevServer', () => {
  it('serves the manifest and the packaged files, with their types and no caching', async () => {
    await writeStaticProject();
    server = await startBareDevServer({ projectDir: project, port: 0, launcherHome: home, log: (line) => logLines.push(line) });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect(server.pluginId).toBe(PLUGIN_ID);
    expect(server.buildCommand).toBeNull();

    const manifestResponse = await fetch(new URL('manifest.json', server.url));
    expect(manifestResponse.status).toBe(200);
    expect(manifestResponse.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(manifestResponse.headers.get('cache-control')).toBe('no-store');
    expect(await manifestResponse.text()).toBe(await readFile(join(project, 'manifest.json'), 'utf8'));

    for (const [path, type] of [
      ['index.html', 'text/html; charset=utf-8'],
      ['main.js', 'text/javascript; charset=utf-8'],
      ['assets/logo.svg', 'image/svg+xml'],
    ] as const) {
      const response = await fetch(new URL(path, server.url));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(await response.text(), path).toBe(await readFile(join(project, path), 'utf8'));
    }
    const head = await fetch(new URL('main.js', server.url), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String('console.log("hi");\n'.length));
  });

  it('serves nothing pack would leave out, and no path that could leave the project', async () => {
    await writeStaticProject();
    server = await startBareDevServer({ projectDir: project, port: 0, launcherHome: home, log: (line) => logLines.push(line) });
    for (const path of ['src/secret.ts', 'notes.md', '.env', '.plugignore', 'node_modules/dep/index.js', 'missing.js', 'assets']) {
      const response = await fetch(new URL(path, server.url));
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    for (const path of [
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/..%2f..%2foutside.txt',
      '/assets/../index.html',
      '/assets%5clogo.svg',
      '//etc/passwd',
      '/a%ZZ',
    ]) {
      const response = await rawRequest(server.url, path);
      expect(response.status, path).toBe(400);
      expect(JSON.parse(response.body), path).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
    // DNS rebinding: another site's name pointing at 127.0.0.1 gets nothing.
    const rebound = await rawRequest(server.url, '/manifest.json', { headers: { Host: `attacker.example:${server.port}` } });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
    expect((await rawRequest(server.url, '/manifest.json', { headers: { Host: `localhost:${server.port}` } })).status).toBe(200);
    const posted = await fetch(new URL('manifest.json', server.url), { method: 'POST', body: '{}' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
  });

  it('shows a page for a person at /, and streams events with a hello naming the plugin', async () => {
    await writeStaticProject();
    server = await startBareDevServer({ projectDir: project, port: 0, launcherHome: home, log: (line) => logLines.push(line) });
    const page = await fetch(server.url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain(PLUGIN_ID);
    expect(html).toContain('<a href="manifest.json">');
    expect(html).toContain(join(home, DEV_PLUGINS_FILE_NAME));

    const events = await readDevEvents(server.url);
    expect(await events.next()).toEqual({ type: 'hello', pluginIds: [PLUGIN_ID] });
    events.close();
  });

  it('adds its entry to .dev-plugins.json beside the others and removes only its own on close', async () => {
    await writeStaticProject();
    await mkdir(home);
    await writeFile(join(home, DEV_PLUGINS_FILE_NAME), JSON.stringify(OTHER));
    server = await startBareDevServer({ projectDir: project, port: 0, launcherHome: home, log: (line) => logLines.push(line) });
    expect(server.devPluginsFile).toBe(join(home, DEV_PLUGINS_FILE_NAME));
    expect(await readDevPlugins()).toEqual({ ...OTHER, [PLUGIN_ID]: server.url });
    await server.close();
    server = undefined;
    expect(await readDevPlugins()).toEqual(OTHER);
  });

  it('creates the data directory and the file, and deletes the file when its entry was the last', async () => {
    await writeStaticProject();
    server = await startBareDevServer({ projectDir: project, port: 0, launcherHome: home, log: (line) => logLines.push(line) });
    expect(await readDevPlugins()).toEqual({ [PLUGIN_ID]: server.url });
    const { url } = server;
    await server.close();
    server = undefined;
    expect(existsSync(join(home, DEV_PLUGINS_FILE_NAME))).toBe(false);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('builds first, serves the build output, and rebuilds on a change', async () => {
    await writeFile(join(project, 'manifest.json'), JSON.stringify(manifest('dist/index.html')));
    await mkdir(join(project, 'src'));
    await writeFile(join(project, 'src', 'page.html'), '<p>first</p>');
    await writeFile(join(project, '.plugignore'), 'src/\nbuild.mjs\n');
    await writeFile(
      join(project, 'build.mjs'),
      "import { cpSync, mkdirSync } from 'node:fs';\nmkdirSync('dist', { recursive: true });\ncpSync('src/page.html', 'dist/index.html');\n",
    );
    server = await startBareDevServer({
      projectDir: project,
      port: 0,
      launcherHome: home,
      buildCommand: `"${process.execPath}" build.mjs`,
      log: (line) => logLines.push(line),
    });
    expect(await (await fetch(new URL('dist/index.html', server.url))).text()).toBe('<p>first</p>');
    expect((await fetch(new URL('src/page.html', server.url))).status).toBe(404);
    expect((await fetch(new URL('build.mjs', server.url))).status).toBe(404);

    const events = await readDevEvents(server.url);
    expect((await events.next()).type).toBe('hello');
    await writeFile(join(project, 'src', 'page.html'), '<p>second</p>');
    expect((await events.next()).type).toBe('building');
    expect((await events.next()).type).toBe('rebuilt');
    expect(await (await fetch(new URL('dist/index.html', server.url))).text()).toBe('<p>second</p>');
    expect(await (await fetch(server.url)).text()).toContain('Up to date: built in');
    events.close();
  });

  it('names the port and how to change it when the port is taken', async () => {
    await writeStaticProject();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await expect(startBareDevServer({ projectDir: project, port, launcherHome: home, log: () => undefined })).rejects.toMatchObject({
        code: 'PORT_IN_USE',
        message: expect.stringMatching(new RegExp(`Port ${port} .*--port <n> \\(or set PLUGINCTL_DEV_PORT\\)`)),
      });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    expect(existsSync(join(home, DEV_PLUGINS_FILE_NAME))).toBe(false);
  });

  it('asks for a plugin project when there is no manifest, and names manifest problems', async () => {
    await expect(startBareDevServer({ projectDir: project, port: 0, launcherHome: home, log: () => undefined })).rejects.toMatchObject({
      code: 'NO_MANIFEST',
      message: expect.stringContaining('plugins-dev/'),
    });
    await writeFile(join(project, 'manifest.json'), JSON.stringify({ ...manifest('index.html'), id: 'Not An Id' }));
    await expect(startBareDevServer({ projectDir: project, port: 0, launcherHome: home, log: () => undefined })).rejects.toMatchObject({
      code: 'INVALID_MANIFEST',
      message: expect.stringContaining('id'),
    });
  });
});
