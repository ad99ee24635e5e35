import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_EVENTS_PATH } from '@plughost/host-sdk/core';
import { createProject } from '../../../pluginctl/src/commands/create.js';
import { createDevEventHub, type DevEventHub } from '../../../pluginctl/src/dev/event-hub.js';
import { type HotReloader, startHotReloader } from '../../../pluginctl/src/dev/hot-reloader.js';
import { type DevEventReader, ManualClock, processEnded, readDevEvents, waitFor } from './dev-support.js';

const PLUGIN_ID = 'com.example.hotreload';

/**
 * The project's build: counts its runs in builds.log, waits while a `hold` file exists (so a test
 * can change files during a build), records PLUGINCTL_DEV in build.env, fails when src/state.txt
 * says "error", else copies it to dist/.
 */
const BUILD_SCRIPT = `
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
appendFileSync('builds.log', 'build\\n');
writeFileSync('build.pid', String(process.pid));
writeFileSync('build.env', process.env.PLUGINCTL_DEV ?? 'unset');
while (existsSync('hold')) await new Promise((resolve) => setTimeout(resolve, 10));
const state = readFileSync('src/state.txt', 'utf8');
if (state.includes('error')) {
  console.log('compiling src/state.txt');
  console.error('src/state.txt:1:1: error: Unexpected token');
  process.exit(1);
}
mkdirSync('dist', { recursive: true });
writeFileSync('dist/out.txt', state);
console.log('built');
`;
const BUILD_COMMAND = `"${process.execPath}" build.mjs`;

let dir: string;
let hub: DevEventHub;
let server: Server;
let baseUrl: string;
let reloader: HotReloader | undefined;
let reader: DevEventReader | undefined;
let logLines: string[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pluginctl-dev-reload-'));
  await mkdir(join(dir, 'src'));
  await writeFile(join(dir, 'src', 'state.txt'), 'start');
  await writeFile(join(dir, 'build.mjs'), BUILD_SCRIPT);
  logLines = [];
  hub = createDevEventHub(() => [PLUGIN_ID]);
  server = createServer((request, response) => {
    if (request.url === DEV_EVENTS_PATH) hub.handle(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
});

afterEach(async () => {
  reader?.close();
  reader = undefined;
  await reloader?.close();
  reloader = undefined;
  hub.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function buildsRun(): Promise<number> {
  const log = await readFile(join(dir, 'builds.log'), 'utf8').catch(() => '');
  return log.split('\n').filter(Boolean).length;
}

/** Changes src/state.txt and lets the quiet period end once the watcher has seen it. */
async function change(clock: ManualClock, state: string): Promise<void> {
  await writeFile(join(dir, 'src', 'state.txt'), state);
  await waitFor(() => clock.pending > 0, 'the watcher to see the change');
  clock.advance(400);
}

async function connect(): Promise<DevEventReader> {
  reader = await readDevEvents(baseUrl);
  expect(reader.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(reader.response.headers.get('cache-control')).toBe('no-store');
  expect(await reader.next()).toEqual({ type: 'hello', pluginIds: [PLUGIN_ID] });
  return reader;
}

describe('startHotReloader', () => {
  it('publishes building, then rebuilt or build-failed with the output, over the event stream', async () => {
    const clock = new ManualClock();
    const events = await connect();
    reloader = await startHotReloader({ pluginId: PLUGIN_ID, dir, buildCommand: BUILD_COMMAND, hub, log: (line) => logLines.push(line), clock });
    expect(reloader.buildCommand).toBe(BUILD_COMMAND);

    await change(clock, 'one');
    expect(await events.next()).toMatchObject({ type: 'building', pluginId: PLUGIN_ID, at: expect.any(String) });
    const rebuilt = await events.next();
    expect(rebuilt).toMatchObject({ type: 'rebuilt', pluginId: PLUGIN_ID });
    expect(rebuilt.type === 'rebuilt' && rebuilt.durationMs).toBeGreaterThan(0);
    expect(await readFile(join(dir, 'dist', 'out.txt'), 'utf8')).toBe('one');

    await change(clock, 'error');
    expect(await events.next()).toMatchObject({ type: 'building' });
    const failed = await events.next();
    expect(failed).toMatchObject({ type: 'build-failed', pluginId: PLUGIN_ID });
    expect(failed.type === 'build-failed' && failed.output).toContain('src/state.txt:1:1: error: Unexpected token');
    // The previous output stays for the running version.
    expect(await readFile(join(dir, 'dist', 'out.txt'), 'utf8')).toBe('one');
    expect(logLines.join('\n')).toContain('build failed (the running version stays)');

    await change(clock, 'two');
    expect(await events.next()).toMatchObject({ type: 'building' });
    expect(await events.next()).toMatchObject({ type: 'rebuilt' });
    expect(await readFile(join(dir, 'dist', 'out.txt'), 'utf8')).toBe('two');
    expect(await buildsRun()).toBe(3);
  });

  it('runs one build at a time; changes during a build queue exactly one more', async () => {
    const clock = new ManualClock();
    const events = await connect();
    reloader = await startHotReloader({ pluginId: PLUGIN_ID, dir, buildCommand: BUILD_COMMAND, hub, log: (line) => logLines.push(line), clock });

    await writeFile(join(dir, 'hold'), '');
    await change(clock, 'a');
    expect(await events.next()).toMatchObject({ type: 'building' });
    // Two separate changes while the first build runs.
    await change(clock, 'b');
    await change(clock, 'c');
    await waitFor(async () => (await buildsRun()) === 1, 'the first build to start');
    await rm(join(dir, 'hold'));

    expect((await events.next()).type).toBe('rebuilt');
    expect((await events.next()).type).toBe('building');
    expect((await events.next()).type).toBe('rebuilt');
    expect(await readFile(join(dir, 'dist', 'out.txt'), 'utf8')).toBe('c');
    // A later change gives the next events: nothing else was queued.
    await change(clock, 'd');
    expect((await events.next()).type).toBe('building');
    expect((await events.next()).type).toBe('rebuilt');
    expect(await buildsRun()).toBe(3);
  });

  it('builds after the quiet period on the real clock', async () => {
    const events = await connect();
    reloader = await startHotReloader({ pluginId: PLUGIN_ID, dir, buildCommand: BUILD_COMMAND, hub, log: (line) => logLines.push(line) });
    await writeFile(join(dir, 'src', 'state.txt'), 'real');
    expect((await events.next()).type).toBe('building');
    expect((await events.next()).type).toBe('rebuilt');
    await writeFile(join(dir, 'src', 'state.txt'), 'again');
    expect((await events.next()).type).toBe('building');
    expect((await events.next()).type).toBe('rebuilt');
    expect(await buildsRun()).toBe(2);
  });

  it('builds once before resolving when initialBuild is set', async () => {
    const events = await connect();
    reloader = await startHotReloader({ pluginId: PLUGIN_ID, dir, buildCommand: BUILD_COMMAND, hub, log: (line) => logLines.push(line), initialBuild: true });
    expect(await readFile(join(dir, 'dist', 'out.txt'), 'utf8')).toBe('start');
    expect(events.received.map((event) => event.type)).toEqual(['hello', 'building', 'rebuilt']);
    // A dev build: the project may skip what only a release needs (the react template does).
    expect(await readFile(join(dir, 'build.env'), 'utf8')).toBe('1');
  });

  it('publishes rebuilt (durationMs 0) after the quiet period for a project without a build', async () => {
    const clock = new ManualClock();
    const events = await connect();
    reloader = await startHotReloader({ pluginId: PLUGIN_ID, dir, hub, log: (line) => logLines.push(line), clock, initialBuild: true });
    expect(reloader.buildCommand).toBeNull();
    await writeFile(join(dir, 'index.html'), '<p>changed</p>');
    await waitFor(() => clock.pending > 0, 'the watcher to see the change');
    clock.advance(400);
    expect(await events.next()).toMatchObject({ type: 'rebuilt', pluginId: PLUGIN_ID, durationMs: 0 });
    expect(await buildsRun()).toBe(0);
  });

  it('reloads a project made by `pluginctl create -t html` when its src/main.js changes', async () => {
    const project = join(dir, 'created');
    await createProject({ id: PLUGIN_ID, template: 'html', directory: project });
    const clock = new ManualClock();
    const events = await connect();
    reloader = await startHotReloader({ pluginId: PLUGIN_ID, dir: project, hub, log: (line) => logLines.push(line), clock });
    expect(reloader.buildCommand).toBeNull();
    const main = join(project, 'src', 'main.js');
    await writeFile(main, `${await readFile(main, 'utf8')}// edited\n`);
    await waitFor(() => clock.pending > 0, 'the watcher to see src/main.js change');
    clock.advance(400);
    expect(await events.next()).toMatchObject({ type: 'rebuilt', pluginId: PLUGIN_ID, durationMs: 0 });
    expect(logLines).toContain(`${PLUGIN_ID}: changed (no build), reload`);
  });

  it('uses `run build` of the package manager when package.json has a build script', async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ scripts: { build: 'node build.mjs' } }));
    await writeFile(join(dir, 'package-lock.json'), '{}');
    reloader = await startHotReloader({ pluginId: PLUGIN_ID, dir, hub, log: (line) => logLines.push(line) });
    expect(reloader.buildCommand).toBe('npm run build');
  });

  it('close() stops a running build', async () => {
    const clock = new ManualClock();
    const events = await connect();
    reloader = await startHotReloader({ pluginId: PLUGIN_ID, dir, buildCommand: BUILD_COMMAND, hub, log: (line) => logLines.push(line), clock });
    await writeFile(join(dir, 'hold'), '');
    await change(clock, 'held');
    expect((await events.next()).type).toBe('building');
    await waitFor(() => existsSync(join(dir, 'build.pid')), 'the build to start');
    const pid = Number(await readFile(join(dir, 'build.pid'), 'utf8'));
    await reloader.close();
    reloader = undefined;
    await waitFor(() => processEnded(pid), 'the build to be stopped');
    // Closed: no result of the stopped build is published.
    expect(events.received.map((event) => event.type)).toEqual(['hello', 'building']);
  });
});

describe('createDevEventHub', () => {
  it('greets each client with the current plugin ids and sends published events to all', async () => {
    const first = await connect();
    const second = await readDevEvents(baseUrl);
    expect(await second.next()).toEqual({ type: 'hello', pluginIds: [PLUGIN_ID] });
    hub.publish({ type: 'rebuilt', pluginId: PLUGIN_ID, at: '2026-01-01T00:00:00.000Z', durationMs: 12 });
    const expected = { type: 'rebuilt', pluginId: PLUGIN_ID, at: '2026-01-01T00:00:00.000Z', durationMs: 12 };
    expect(await first.next()).toEqual(expected);
    expect(await second.next()).toEqual(expected);
    second.close();
  });

  it('refuses other methods and ends the streams on close', async () => {
    const refused = await fetch(new URL(DEV_EVENTS_PATH, baseUrl), { method: 'POST' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET');
    expect(await refused.json()).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });

    const response = await fetch(new URL(DEV_EVENTS_PATH, baseUrl));
    hub.close();
    // The body ends: a client sees the server going away.
    expect(await response.text()).toMatch(/^event: hello\n/);
    expect((await fetch(new URL(DEV_EVENTS_PATH, baseUrl))).status).toBe(204);
  });
});
