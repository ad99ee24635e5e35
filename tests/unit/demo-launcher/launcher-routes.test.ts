/**
 * The demo launcher's launcher routes on a real backend (port 0, data in a temporary
 * LAUNCHER_HOME) composed as the demo's server composes it: the seeded game library, `/settings`,
 * `/resources/search`, `/resource-download/start` (a real download from the local resource host,
 * for the installed mod browser sample) and the launch routes, checked against their OpenAPI
 * description.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@plughost/backend-kit';
import { buildSamplePlugins } from '../../../demo-launcher/scripts/build-sample-plugins.mjs';
import { startLauncherExtensions, type LauncherExtensions } from '../../../demo-launcher/src/server/launcher-extensions.js';
import { ResourceCatalogue } from '../../../demo-launcher/src/server/resources/catalogue.js';
import { resourceFileBytes } from '../../../demo-launcher/src/server/resources/resource-file.js';
import { startTestBackend, type TestBackend } from '../../support/local-backend.js';
import { waitForTask } from '../backend-kit/local-backend/downloads-support.js';

// ajv-formats is CommonJS with a default export; under NodeNext its callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const CATALOGUE = new URL('../../../demo-launcher/resources/catalogue.json', import.meta.url);
const SAMPLES = new URL('../../../demo-launcher/sample-plugins', import.meta.url);
const ROOT_KEY = new URL('../../../demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json', import.meta.url);
const MOD_BROWSER = 'com.plughost.samples.mod-browser';
const AS_PLUGIN = { 'X-Plugin-Id': MOD_BROWSER };

interface Instance {
  id: string;
  name: string;
  gameDir: string;
  gameVersion?: string;
  loader?: string;
  icon: string;
  lastPlayedAt?: string;
}

let home: string;
let outside: string;
let extensions: LauncherExtensions;
let running: TestBackend;
let catalogue: ResourceCatalogue;
let instances: Instance[];
let document: Record<string, unknown> & { paths: Record<string, Record<string, { tags: string[] }>> };

async function json<T>(path: string, init: Parameters<TestBackend['api']>[1] = {}): Promise<{ status: number; body: T }> {
  const response = await running.api(path, init);
  return { status: response.status, body: (await response.json()) as T };
}

function instanceNamed(name: string): Instance {
  const found = instances.find((instance) => instance.name === name);
  if (!found) throw new Error(`no instance ${name}`);
  return found;
}

/** Validates a response body against the served document's schema of that operation. */
function validate(method: string, path: string, status: number, body: unknown): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const pointer = ['paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema']
    .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
    .join('/');
  const check = ajv.compile({ $ref: `openapi.json#/${pointer}` });
  return check(body) ? [] : (check.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'launcher-routes-'));
  outside = await mkdtemp(join(tmpdir(), 'launcher-routes-outside-'));
  catalogue = await ResourceCatalogue.load(CATALOGUE);
  extensions = await startLauncherExtensions({
    dataDirectory: home,
    catalogueFile: CATALOGUE,
    logger: silentLogger,
    playMs: 30,
    resourceHost: { bytesPerSecond: 0 },
  });
  const rootPublicKey = (JSON.parse(await readFile(ROOT_KEY, 'utf8')) as { publicKey: string }).publicKey;
  running = await startTestBackend({
    dataDirectory: home,
    rootPublicKey,
    development: true,
    instances: extensions.instances,
    launcherRoutes: extensions.launcherRoutes,
    trustedHosts: [...extensions.trustedHosts],
  });
  await extensions.seed();
  const built = await buildSamplePlugins({ sourceDir: SAMPLES.pathname, outDir: join(outside, 'samples') });
  const modBrowser = built.plugins.find((plugin) => plugin.id === MOD_BROWSER);
  if (!modBrowser) throw new Error('the mod browser sample was not built');
  await running.backend.plugins.installPackage(modBrowser.path, { enable: true });
  instances = (await json<Instance[]>('/api/instance')).body;
  document = (await json<typeof document>('/openapi/v1.json')).body;
});

afterAll(async () => {
  await running?.close({ keepData: true });
  await extensions?.close();
  await rm(home, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('the game library', () => {
  it('seeds four instances once, with icons, last played times and game folders in the launcher home', async () => {
    expect(instances.map((instance) => [instance.name, instance.gameVersion, instance.loader ?? null, instance.icon])).toEqual([
      ['Survival 1.20', '1.20.4', 'fabric', 'grass'],
      ['Creative Sandbox', '1.21.1', null, 'pickaxe'],
      ['Modded Adventure', '1.20.1', 'forge', 'sword'],
      ['Skyblock Classic', '1.19.2', 'fabric', 'island'],
    ]);
    for (const instance of instances) expect(instance.gameDir.startsWith(join(home, 'instances'))).toBe(true);
    expect(instances.filter((instance) => instance.lastPlayedAt === undefined).map((instance) => instance.name)).toEqual(['Skyblock Classic']);
    await extensions.seed();
    expect((await json<Instance[]>('/api/instance')).body).toHaveLength(4);
  });

  it('plugins read it through /instance with the same fields', async () => {
    const { body } = await json<Instance[]>('/api/instance', { headers: AS_PLUGIN });
    expect(body).toEqual(instances);
  });
});

describe('GET /settings', () => {
  it('answers the public preferences only, and nothing else may be done there', async () => {
    const { status, body } = await json<Record<string, unknown>>('/api/settings', { headers: AS_PLUGIN });
    expect(status).toBe(200);
    expect(body).toEqual({ language: 'en', theme: 'dark', defaultMemoryMiB: 4096, closeOnLaunch: false, telemetryEnabled: false, updateCheckHours: 6 });
    expect(validate('get', '/api/settings', 200, body)).toEqual([]);
    expect((await running.api('/api/settings', { json: { theme: 'light' }, headers: AS_PLUGIN })).status).toBe(405);
    expect((await running.api('/api/settings', { method: 'PATCH', json: { theme: 'light' } })).status).toBe(405);
  });
});

describe('GET /resources/search', () => {
  interface Page {
    total: number;
    page: number;
    pageSize: number;
    items: { id: string; type: string; downloads: number; loaders: string[]; gameVersions: string[]; category: string }[];
  }

  it('pages through the whole catalogue, the most downloaded first', async () => {
    const first = await json<Page>('/api/resources/search', { headers: AS_PLUGIN });
    expect(first.status).toBe(200);
    expect(validate('get', '/api/resources/search', 200, first.body)).toEqual([]);
    expect(first.body).toMatchObject({ total: catalogue.resources.length, page: 1, pageSize: 10 });
    expect(first.body.items).toHaveLength(10);
    const downloads = first.body.items.map((item) => item.downloads);
    expect(downloads).toEqual([...downloads].sort((a, b) => b - a));
    const rest = await json<Page>('/api/resources/search?page=2&pageSize=10');
    const ids = [...first.body.items, ...rest.body.items].map((item) => item.id);
    expect(new Set(ids)).toEqual(new Set(catalogue.resources.map((resource) => resource.id)));
    expect((await json<Page>('/api/resources/search?page=5&pageSize=10')).body.items).toEqual([]);
  });

  it('filters by words, kind, game version and loader', async () => {
    const shaders = await json<Page>('/api/resources/search?q=SHADERS&type=shaderpack');
    expect(shaders.body.items.map((item) => item.id).sort()).toEqual(['lumen-shaders', 'ocean-glow', 'potato-shaders']);
    expect(shaders.body.items.every((item) => item.category === 'shaderpacks')).toBe(true);
    const fitting = await json<Page>('/api/resources/search?type=mod&gameVersion=1.19.2&loader=fabric&pageSize=50');
    expect(fitting.body.total).toBeGreaterThan(0);
    for (const item of fitting.body.items) {
      expect(item.gameVersions).toContain('1.19.2');
      expect(item.loaders).toContain('fabric');
    }
    // A loader no mod has keeps the packs, which need none.
    const vanilla = await json<Page>('/api/resources/search?loader=none&pageSize=50');
    expect(vanilla.body.items.some((item) => item.type === 'mod')).toBe(false);
    expect(vanilla.body.total).toBe(catalogue.resources.filter((resource) => resource.type !== 'mod').length);
    expect((await json<Page>('/api/resources/search?q=swift%20northwind')).body.items.map((item) => item.id)).toEqual(['swift-render']);
  });

  it('refuses unknown parameters and bad values, naming them', async () => {
    for (const [query, field] of [
      ['limit=10', 'limit'],
      ['type=plugin', 'type'],
      ['page=0', 'page'],
      ['pageSize=51', 'pageSize'],
      ['type=mod&type=datapack', 'type'],
    ] as const) {
      const { status, body } = await json<{ error: { code: string; message: string } }>(`/api/resources/search?${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe('INVALID_ARGUMENT');
      expect(body.error.message).toContain(`"${field}"`);
    }
  });
});

describe('POST /resource-download/start', () => {
  it('downloads the file into the instance through the download manager, as a task of the calling plugin', async () => {
    const survival = instanceNamed('Survival 1.20');
    const resource = catalogue.get('swift-render')!;
    const started = await json<{ taskId: string; status: string; targetPath: string; resourceId: string; instanceId: string }>('/api/resource-download/start', {
      json: { resourceId: resource.id, instanceId: survival.id },
      headers: AS_PLUGIN,
    });
    expect(started.status).toBe(201);
    expect(validate('post', '/api/resource-download/start', 201, started.body)).toEqual([]);
    expect(started.body).toMatchObject({ resourceId: resource.id, instanceId: survival.id, targetPath: join(survival.gameDir, 'mods', resource.fileName) });
    const done = await waitForTask(running, started.body.taskId, (snapshot) => snapshot.status === 'completed' || snapshot.status === 'failed');
    expect(done).toMatchObject({ status: 'completed', pluginId: MOD_BROWSER, instanceId: survival.id, name: `${resource.name} ${resource.version}` });
    expect(Buffer.compare(await readFile(started.body.targetPath), resourceFileBytes(resource))).toBe(0);
    // The plugin follows its own task (download.progress reads this route for it).
    const own = await json<{ status: string }>(`/api/plugins/download/tasks/${started.body.taskId}`, { headers: AS_PLUGIN });
    expect(own.body.status).toBe('completed');
  });

  it('refuses what does not exist or does not fit the instance', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ resourceId: 'no-such-mod', instanceId: instanceNamed('Survival 1.20').id }, 404, 'NOT_FOUND', '/resources/search'],
      [{ resourceId: 'swift-render', instanceId: 'nope-000000' }, 404, 'INSTANCE_NOT_FOUND', 'nope-000000'],
      [{ resourceId: 'sky-islands-gen', instanceId: instanceNamed('Survival 1.20').id }, 400, 'INVALID_ARGUMENT', 'runs 1.20.4'],
      [{ resourceId: 'backpacks-galore', instanceId: instanceNamed('Survival 1.20').id }, 400, 'INVALID_ARGUMENT', 'runs fabric'],
      [{ resourceId: 'better-trees', instanceId: instanceNamed('Creative Sandbox').id }, 400, 'INVALID_ARGUMENT', 'has no mod loader'],
      [{ resourceId: 'swift-render' }, 400, 'INVALID_ARGUMENT', '"instanceId"'],
      [{ resourceId: 'swift-render', instanceId: instanceNamed('Survival 1.20').id, targetPath: '/tmp/x' }, 400, 'INVALID_ARGUMENT', '"targetPath"'],
    ];
    for (const [body, status, code, text] of cases) {
      const answer = await json<{ error: { code: string; message: string } }>('/api/resource-download/start', { json: body, headers: AS_PLUGIN });
      expect([answer.status, answer.body.error.code], JSON.stringify(body)).toEqual([status, code]);
      expect(answer.body.error.message).toContain(text);
    }
    const stranger = await json<{ error: { code: string } }>('/api/resource-download/start', {
      json: { resourceId: 'clear-glass', instanceId: instanceNamed('Creative Sandbox').id },
      headers: { 'X-Plugin-Id': 'com.example.not-installed' },
    });
    expect([stranger.status, stranger.body.error.code]).toEqual([404, 'PLUGIN_NOT_FOUND']);
  });

  it("asks for the plugin's consent for an instance outside the launcher's instances folder", async () => {
    const elsewhere = await extensions.instances.create({
      name: 'Elsewhere',
      gameDir: join(outside, 'elsewhere'),
      maxMemory: 2048,
      versionIsolation: false,
      gameVersion: '1.20.4',
    });
    const refused = await json<{ error: { code: string } }>('/api/resource-download/start', {
      json: { resourceId: 'clear-glass', instanceId: elsewhere.id },
      headers: AS_PLUGIN,
    });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FS_AUTHORIZATION_REQUIRED']);
    // The launcher itself needs no consent.
    const launcher = await json<{ taskId: string }>('/api/resource-download/start', { json: { resourceId: 'clear-glass', instanceId: elsewhere.id } });
    expect(launcher.status).toBe(201);
    expect(await waitForTask(running, launcher.body.taskId, (snapshot) => snapshot.status === 'completed')).toMatchObject({ pluginId: null });
  });
});

describe('launching an instance', () => {
  interface LaunchLog {
    outcome: string;
    exitCode: number | null;
    arguments: Record<string, unknown>;
    preventedReason?: string;
    startedAt: string;
    lines: { at: string; text: string }[];
  }
  const text = (record: LaunchLog) => record.lines.map((line) => line.text).join('\n');

  it('runs the simulated game with the final arguments, logs what the instance holds and sets last played', async () => {
    const survival = instanceNamed('Survival 1.20');
    expect((await json<null>(`/api/launcher/instances/${survival.id}/last-launch`)).body).toBeNull();
    const launched = await json<LaunchLog>(`/api/launcher/instances/${survival.id}/launch`, {
      json: { arguments: { instance: survival.name, memory: 6144, javaArgs: ['-XX:+UseG1GC'], gameArgs: ['--fullscreen'], addedByHook: true } },
    });
    expect(launched.status).toBe(200);
    expect(validate('post', '/api/launcher/instances/{instanceId}/launch', 200, launched.body)).toEqual([]);
    expect(launched.body).toMatchObject({ outcome: 'exited', exitCode: 0, arguments: { memory: 6144, addedByHook: true } });
    const log = text(launched.body);
    expect(log).toContain('Launching Survival 1.20 (Minecraft 1.20.4, fabric 0.15.7)');
    expect(log).toContain('Arguments after plugin hooks: {"instance":"Survival 1.20","memory":6144');
    expect(log).toMatch(/Command: java -Xmx6144M -XX:\+UseG1GC net\.minecraft\.client\.main\.Main --version 1\.20\.4 --gameDir \S+ --fullscreen/);
    expect(log).toContain('Content: 1 mod (swift-render-0.5.8.jar)');
    expect(log).toContain('Game process started (simulated');
    expect(log).toMatch(/Game process stopped: exit code 0 after \d+\.\d s/);
    const after = (await json<Instance[]>('/api/instance')).body.find((instance) => instance.id === survival.id);
    expect(after?.lastPlayedAt).toBe(launched.body.startedAt);
    const last = await json<LaunchLog>(`/api/launcher/instances/${survival.id}/last-launch`);
    expect(validate('get', '/api/launcher/instances/{instanceId}/last-launch', 200, last.body)).toEqual([]);
    expect(last.body).toEqual(launched.body);
  });

  it('logs a launch a hook prevented, with its reason, and leaves last played alone', async () => {
    const skyblock = instanceNamed('Skyblock Classic');
    const prevented = await json<LaunchLog>(`/api/launcher/instances/${skyblock.id}/launch`, {
      json: { arguments: { instance: skyblock.name, memory: 4096 }, prevented: { reason: 'Back up your world first' } },
    });
    expect(prevented.body).toMatchObject({ outcome: 'prevented', exitCode: null, preventedReason: 'Back up your world first' });
    expect(text(prevented.body)).toContain('Launch prevented by a plugin hook: Back up your world first');
    expect(text(prevented.body)).not.toContain('Game process started');
    const after = (await json<Instance[]>('/api/instance')).body.find((instance) => instance.id === skyblock.id);
    expect(after?.lastPlayedAt).toBeUndefined();
    const silent = await json<LaunchLog>(`/api/launcher/instances/${skyblock.id}/launch`, { json: { arguments: {}, prevented: {} } });
    expect(text(silent.body)).toContain('Launch prevented by a plugin hook: no reason given');
  });

  it('serves the launcher page only, and checks its body', async () => {
    const survival = instanceNamed('Survival 1.20');
    const asPlugin = await json<{ error: { code: string } }>(`/api/launcher/instances/${survival.id}/launch`, { json: { arguments: {} }, headers: AS_PLUGIN });
    expect([asPlugin.status, asPlugin.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await running.api(`/api/launcher/instances/${survival.id}/last-launch`, { headers: AS_PLUGIN })).status).toBe(404);
    for (const body of [{}, { arguments: { memory: 12 } }, { arguments: { javaArgs: '-Xmx1G' } }, { arguments: {}, extra: 1 }]) {
      expect((await running.api(`/api/launcher/instances/${survival.id}/launch`, { json: body })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await json<{ error: { code: string } }>('/api/launcher/instances/nope-000000/launch', { json: { arguments: {} } })).body.error.code).toBe(
      'INSTANCE_NOT_FOUND',
    );
  });
});

describe('OpenAPI description of the launcher routes', () => {
  it('is valid, and describes exactly the launcher routes the demo serves', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    const described = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.tags.includes('launcher-routes'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    const backendOnly = await startTestBackend({ development: true });
    try {
      const own = new Set(backendOnly.backend.routes.map((route) => `${route.method} ${route.path}`));
      const served = running.backend.routes
        .filter((route) => !own.has(`${route.method} ${route.path}`))
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
      expect(described.sort()).toEqual(served.sort());
    } finally {
      await backendOnly.close();
    }
  });
});
