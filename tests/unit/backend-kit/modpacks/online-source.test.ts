import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPluginHostError, type PluginHostError } from '@plughost/host-sdk/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveCurseForgeFiles } from '../../../../backend-kit/src/services/modpacks/curseforge-files.js';
import type { CurseForgeManifest } from '../../../../backend-kit/src/services/modpacks/curseforge-manifest.js';
import { createJsonFetcher } from '../../../../backend-kit/src/services/modpacks/json-fetcher.js';
import type { JsonFetcher, ModpackApiOptions } from '../../../../backend-kit/src/services/modpacks/modpack-plan.js';
import {
  DEFAULT_MODPACK_APIS,
  normalizeSourceType,
  resolveModpackApis,
  resolveOnlineSource,
} from '../../../../backend-kit/src/services/modpacks/online-source.js';
import { createGuardedFetcher } from '../../../../backend-kit/src/services/network/guarded-fetcher.js';

const SHA1 = '0123456789abcdef0123456789abcdef01234567';
const SHA512 = 'cd'.repeat(64);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 answering per path (query ignored), recording each request. */
let server: Server;
let origin: string;
let hostPort: string;
const handlers = new Map<string, Handler>();
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const handler = handlers.get((req.url ?? '').split('?')[0] ?? '');
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  hostPort = `127.0.0.1:${port}`;
  origin = `http://${hostPort}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  handlers.clear();
  seen.length = 0;
});

function json(path: string, body: unknown, status = 200): void {
  handlers.set(path, (_req, res) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
}

/** The guard trusts only the test server, as a vendor's `trustedHosts` would a mirror. */
function trustedFetcher(options?: Parameters<typeof createJsonFetcher>[1]): JsonFetcher {
  return createJsonFetcher(createGuardedFetcher({ trustedHosts: [hostPort] }), options);
}

function apis(extra: ModpackApiOptions = {}): ModpackApiOptions {
  return {
    modrinthApiBase: `${origin}/modrinth/v2`,
    curseforgeApiBase: `${origin}/cf/v1/`,
    ftbApiBase: `${origin}/ftb/public`,
    curseforgeApiKey: 'test-key',
    ...extra,
  };
}

async function rejection(promise: Promise<unknown>): Promise<PluginHostError> {
  try {
    await promise;
  } catch (error) {
    if (isPluginHostError(error)) return error;
    throw error;
  }
  throw new Error('expected a PluginHostError, the promise resolved');
}

function cfFile(projectId: number, fileId: number, extra: Record<string, unknown> = {}): void {
  json(`/cf/v1/mods/${projectId}/files/${fileId}`, {
    data: {
      id: fileId,
      modId: projectId,
      fileName: `mod-${projectId}.jar`,
      downloadUrl: `https://edge.forgecdn.test/files/${fileId}/mod ${projectId}.jar`,
      fileLength: 1000 + projectId,
      hashes: [
        { value: 'd41d8cd98f00b204e9800998ecf8427e', algo: 2 },
        { value: SHA1.toUpperCase(), algo: 1 },
      ],
      ...extra,
    },
  });
}

function manifest(files: CurseForgeManifest['files']): CurseForgeManifest {
  return { name: 'CF Pack', version: '2.0', gameVersion: '1.20.1', loader: 'forge', loaderVersion: '47.2.0', files, overridesFolder: 'overrides' };
}

describe('resolveCurseForgeFiles', () => {
  it('asks the API for each required file with the key and builds the plan', async () => {
    cfFile(1, 11);
    cfFile(2, 22);
    cfFile(3, 33);
    const plan = await resolveCurseForgeFiles(
      manifest([
        { projectId: 1, fileId: 11, required: true },
        { projectId: 3, fileId: 33, required: false },
        { projectId: 2, fileId: 22, required: true },
      ]),
      trustedFetcher(),
      apis(),
    );
    expect(plan).toEqual({
      name: 'CF Pack',
      version: '2.0',
      gameVersion: '1.20.1',
      loader: 'forge',
      loaderVersion: '47.2.0',
      overrideFolders: ['overrides'],
      files: [
        { path: 'mods/mod-1.jar', urls: ['https://edge.forgecdn.test/files/11/mod%201.jar'], hashes: { sha1: SHA1 }, size: 1001 },
        { path: 'mods/mod-2.jar', urls: ['https://edge.forgecdn.test/files/22/mod%202.jar'], hashes: { sha1: SHA1 }, size: 1002 },
      ],
    });
    // The optional file is not even asked for; the configured base's trailing slash is dropped.
    expect(seen.map((request) => request.url).sort()).toEqual(['/cf/v1/mods/1/files/11', '/cf/v1/mods/2/files/22']);
    expect(seen.every((request) => request.headers['x-api-key'] === 'test-key' && request.headers.accept === 'application/json')).toBe(true);
  });

  it('sends no key when none is configured', async () => {
    cfFile(1, 11);
    const { curseforgeApiKey: _unused, ...withoutKey } = apis();
    await resolveCurseForgeFiles(manifest([{ projectId: 1, fileId: 11, required: true }]), trustedFetcher(), withoutKey);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('runs at most 6 API calls at once', async () => {
    let running = 0;
    let most = 0;
    const files = Array.from({ length: 20 }, (_, index) => ({ projectId: index + 1, fileId: 100 + index, required: true }));
    for (const file of files) {
      handlers.set(`/cf/v1/mods/${file.projectId}/files/${file.fileId}`, (_req, res) => {
        running += 1;
        most = Math.max(most, running);
        setTimeout(() => {
          running -= 1;
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              data: {
                id: file.fileId,
                fileName: `m${file.projectId}.jar`,
                downloadUrl: 'https://cdn.test/m.jar',
                fileLength: 1,
                hashes: [{ value: SHA1, algo: 1 }],
              },
            }),
          );
        }, 25);
      });
    }
    const plan = await resolveCurseForgeFiles(manifest(files), trustedFetcher(), apis());
    expect(plan.files.map((file) => file.path)).toEqual(files.map((file) => `mods/m${file.projectId}.jar`));
    expect(most).toBe(6);
  });

  it('refuses files whose authors disabled third-party downloads, naming every one', async () => {
    cfFile(1, 11, { downloadUrl: null });
    cfFile(2, 22);
    cfFile(3, 33, { downloadUrl: null });
    const error = await rejection(
      resolveCurseForgeFiles(
        manifest([
          { projectId: 1, fileId: 11, required: true },
          { projectId: 2, fileId: 22, required: true },
          { projectId: 3, fileId: 33, required: true },
        ]),
        trustedFetcher(),
        apis(),
      ),
    );
    expect(error.code).toBe('MODPACK_SOURCE_INVALID');
    expect(error.message).toContain('project 1 file 11');
    expect(error.message).toContain('project 3 file 33');
    expect(error.message).not.toContain('project 2 file 22');
    expect(error.message).toContain('manually');
    expect(error.details).toEqual({
      files: [
        { projectId: 1, fileId: 11, fileName: 'mod-1.jar' },
        { projectId: 3, fileId: 33, fileName: 'mod-3.jar' },
      ],
    });
  });

  it('refuses a file without a sha1', async () => {
    cfFile(1, 11, { hashes: [{ value: 'd41d8cd98f00b204e9800998ecf8427e', algo: 2 }] });
    const error = await rejection(resolveCurseForgeFiles(manifest([{ projectId: 1, fileId: 11, required: true }]), trustedFetcher(), apis()));
    expect(error).toMatchObject({ code: 'MODPACK_SOURCE_INVALID', message: expect.stringContaining('no sha1') as unknown });
  });

  it('refuses a malformed sha1', async () => {
    cfFile(1, 11, { hashes: [{ value: 'xyz', algo: 1 }] });
    const error = await rejection(resolveCurseForgeFiles(manifest([{ projectId: 1, fileId: 11, required: true }]), trustedFetcher(), apis()));
    expect(error).toMatchObject({ code: 'MODPACK_SOURCE_INVALID', message: expect.stringContaining('40 hex digits') as unknown });
  });

  it.each(['../evil.jar', 'sub/evil.jar', 'C:evil.jar', '..', 'evil.jar.', 'con.jar', ''])('refuses the file name %j', async (fileName) => {
    cfFile(1, 11, { fileName });
    const error = await rejection(resolveCurseForgeFiles(manifest([{ projectId: 1, fileId: 11, required: true }]), trustedFetcher(), apis()));
    expect(error.code).toBe('UNSAFE_ENTRY_PATH');
    expect(error.message).toContain(JSON.stringify(fileName));
  });

  it('refuses an answer about another file, and two mods with one file name', async () => {
    cfFile(1, 11, { id: 12 });
    expect((await rejection(resolveCurseForgeFiles(manifest([{ projectId: 1, fileId: 11, required: true }]), trustedFetcher(), apis()))).message).toContain(
      'another file',
    );
    cfFile(1, 11);
    cfFile(2, 22, { fileName: 'MOD-1.jar' });
    const error = await rejection(
      resolveCurseForgeFiles(
        manifest([
          { projectId: 1, fileId: 11, required: true },
          { projectId: 2, fileId: 22, required: true },
        ]),
        trustedFetcher(),
        apis(),
      ),
    );
    expect(error).toMatchObject({ code: 'MODPACK_SOURCE_INVALID', message: expect.stringContaining('twice') as unknown });
  });
});

function modrinthVersion(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'Ver123ab',
    project_id: 'Proj456c',
    name: 'Pack 1.0',
    version_number: '1.0',
    files: [
      {
        url: 'https://cdn.modrinth.test/data/Proj456c/versions/Ver123ab/extra.zip',
        filename: 'extra.zip',
        primary: false,
        size: 5,
        hashes: { sha1: SHA1, sha512: SHA512 },
      },
      {
        url: 'https://cdn.modrinth.test/data/Proj456c/versions/Ver123ab/Pack-1.0.mrpack',
        filename: 'Pack-1.0.mrpack',
        primary: true,
        size: 4096,
        hashes: { sha1: SHA1.toUpperCase(), sha512: SHA512 },
      },
    ],
    ...extra,
  };
}

describe('resolveOnlineSource: Modrinth', () => {
  it('resolves a version to its primary .mrpack', async () => {
    json('/modrinth/v2/version/Ver123ab', modrinthVersion());
    const source = await resolveOnlineSource({ type: 'modrinth', projectId: 'Proj456c', fileId: 'Ver123ab' }, trustedFetcher(), apis());
    expect(source).toEqual({
      kind: 'archive',
      format: 'mrpack',
      url: 'https://cdn.modrinth.test/data/Proj456c/versions/Ver123ab/Pack-1.0.mrpack',
      fileName: 'Pack-1.0.mrpack',
      hashes: { sha1: SHA1, sha512: SHA512 },
      size: 4096,
    });
    expect(seen.map((request) => request.url)).toEqual(['/modrinth/v2/version/Ver123ab']);
  });

  it('takes the first .mrpack when no file is primary', async () => {
    const files = [
      { url: 'https://cdn.test/a.zip', filename: 'a.zip', primary: false, hashes: { sha1: SHA1 } },
      { url: 'https://cdn.test/b.mrpack', filename: 'b.mrpack', primary: false, hashes: { sha512: SHA512 } },
      { url: 'https://cdn.test/c.mrpack', filename: 'c.mrpack', primary: false, hashes: { sha1: SHA1 } },
    ];
    json('/modrinth/v2/version/Ver123ab', modrinthVersion({ files }));
    const source = await resolveOnlineSource({ type: 'modrinth', projectId: 'Proj456c', fileId: 'Ver123ab' }, trustedFetcher(), apis());
    expect(source).toEqual({ kind: 'archive', format: 'mrpack', url: 'https://cdn.test/b.mrpack', fileName: 'b.mrpack', hashes: { sha512: SHA512 } });
  });

  it('refuses a version of another project', async () => {
    json('/modrinth/v2/version/Ver123ab', modrinthVersion({ project_id: 'OtherPrj' }));
    const error = await rejection(resolveOnlineSource({ type: 'modrinth', projectId: 'Proj456c', fileId: 'Ver123ab' }, trustedFetcher(), apis()));
    expect(error.code).toBe('MODPACK_SOURCE_INVALID');
    expect(error.message).toContain('belongs to another project');
    expect(error.message).toContain('OtherPrj');
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'a primary file that is not an .mrpack',
      { files: [{ url: 'https://cdn.test/mod.jar', filename: 'mod.jar', primary: true, hashes: { sha1: SHA1 } }] },
      'MODPACK_SOURCE_INVALID',
      'no .mrpack',
    ],
    ['no files', { files: [] }, 'MODPACK_SOURCE_INVALID', 'no .mrpack'],
    [
      'no digest',
      { files: [{ url: 'https://cdn.test/p.mrpack', filename: 'p.mrpack', primary: true, hashes: {} }] },
      'MODPACK_SOURCE_INVALID',
      'neither a sha1 nor a sha512',
    ],
    [
      'a javascript: URL',
      { files: [{ url: 'javascript:alert(1)', filename: 'p.mrpack', primary: true, hashes: { sha1: SHA1 } }] },
      'MODPACK_SOURCE_INVALID',
      'not an http or https URL',
    ],
    [
      'an unsafe file name',
      { files: [{ url: 'https://cdn.test/p.mrpack', filename: '../../p.mrpack', primary: true, hashes: { sha1: SHA1 } }] },
      'UNSAFE_ENTRY_PATH',
      '"../../p.mrpack"',
    ],
    ['an answer about another version', { id: 'Other999' }, 'MODPACK_SOURCE_INVALID', 'another version'],
  ])('refuses %s', async (_label, change, code, message) => {
    json('/modrinth/v2/version/Ver123ab', modrinthVersion(change));
    const error = await rejection(resolveOnlineSource({ type: 'modrinth', projectId: 'Proj456c', fileId: 'Ver123ab' }, trustedFetcher(), apis()));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('refuses a non-2xx answer naming the host and status', async () => {
    json('/modrinth/v2/version/Ver123ab', { error: 'boom' }, 503);
    const error = await rejection(resolveOnlineSource({ type: 'modrinth', projectId: 'Proj456c', fileId: 'Ver123ab' }, trustedFetcher(), apis()));
    expect(error).toMatchObject({ code: 'MODPACK_SOURCE_INVALID', details: { host: hostPort, status: 503 } });
    expect(error.message).toContain(hostPort);
    expect(error.message).toContain('503');
  });

  it('refuses an answer that is not JSON', async () => {
    handlers.set('/modrinth/v2/version/Ver123ab', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'));
    const error = await rejection(resolveOnlineSource({ type: 'modrinth', projectId: 'Proj456c', fileId: 'Ver123ab' }, trustedFetcher(), apis()));
    expect(error.code).toBe('MODPACK_SOURCE_INVALID');
    expect(error.message).toContain(`${hostPort} answered HTTP 200 with a body that is not JSON`);
  });
});

describe('resolveOnlineSource: CurseForge', () => {
  it('resolves a pack file to a curseforge archive with its sha1, sending the key', async () => {
    cfFile(285109, 5000001, {
      fileName: 'All the Mods 9-0.2.60.zip',
      downloadUrl: 'https://edge.forgecdn.test/files/5000/1/All the Mods 9-0.2.60.zip',
      fileLength: 123456,
    });
    const source = await resolveOnlineSource({ type: 'curseforge', projectId: '285109', fileId: '5000001' }, trustedFetcher(), apis());
    expect(source).toEqual({
      kind: 'archive',
      format: 'curseforge',
      url: 'https://edge.forgecdn.test/files/5000/1/All%20the%20Mods%209-0.2.60.zip',
      fileName: 'All the Mods 9-0.2.60.zip',
      hashes: { sha1: SHA1 },
      size: 123456,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: '/cf/v1/mods/285109/files/5000001', headers: { 'x-api-key': 'test-key' } });
  });

  it('refuses a pack whose author disabled third-party downloads, naming the ids', async () => {
    cfFile(285109, 5000001, { fileName: 'pack.zip', downloadUrl: null });
    const error = await rejection(resolveOnlineSource({ type: 'curseforge', projectId: '285109', fileId: '5000001' }, trustedFetcher(), apis()));
    expect(error.code).toBe('MODPACK_SOURCE_INVALID');
    expect(error.message).toMatch(/project 285109.*file 5000001.*manually/);
  });

  it('refuses a file that is not a pack archive, and one from another project', async () => {
    cfFile(285109, 5000001, { fileName: 'some-mod.jar' });
    expect((await rejection(resolveOnlineSource({ type: 'curseforge', projectId: '285109', fileId: '5000001' }, trustedFetcher(), apis()))).message).toContain(
      'not a modpack archive',
    );
    cfFile(285109, 5000001, { fileName: 'pack.zip', modId: 1 });
    expect((await rejection(resolveOnlineSource({ type: 'curseforge', projectId: '285109', fileId: '5000001' }, trustedFetcher(), apis()))).message).toContain(
      'another project',
    );
  });

  it('refuses the API saying no (403 without a valid key)', async () => {
    json('/cf/v1/mods/285109/files/5000001', {}, 403);
    const error = await rejection(resolveOnlineSource({ type: 'curseforge', projectId: '285109', fileId: '5000001' }, trustedFetcher(), apis()));
    expect(error).toMatchObject({ code: 'MODPACK_SOURCE_INVALID', details: { status: 403 } });
  });
});

function ftbVersion(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 6543,
    name: '1.5.0',
    type: 'Release',
    status: 'success',
    targets: [
      { name: 'minecraft', version: '1.20.1', type: 'game' },
      { name: 'forge', version: '47.2.0', type: 'modloader' },
      { name: 'java', version: '17.0.8', type: 'runtime' },
    ],
    files: [
      {
        path: './mods/',
        name: 'ftb-library.jar',
        url: 'https://dist.modpacks.test/mods/ftb-library.jar',
        sha1: SHA1.toUpperCase(),
        size: 100,
        clientonly: false,
        serveronly: false,
        type: 'mod',
      },
      {
        path: './config/',
        name: 'ftb.snbt',
        url: 'https://dist.modpacks.test/config/ftb.snbt',
        sha1: SHA1,
        size: 10,
        clientonly: false,
        serveronly: false,
        type: 'config',
      },
      {
        path: './',
        name: 'options.txt',
        url: 'https://dist.modpacks.test/options.txt',
        sha1: SHA1,
        size: 1,
        clientonly: true,
        serveronly: false,
        type: 'config',
      },
      {
        path: './mods/',
        name: 'server-only.jar',
        url: 'https://dist.modpacks.test/mods/server-only.jar',
        sha1: SHA1,
        size: 5,
        clientonly: false,
        serveronly: true,
        type: 'mod',
      },
    ],
    ...extra,
  };
}

describe('resolveOnlineSource: FTB', () => {
  it('builds the plan from the version, with the pack name from the pack', async () => {
    json('/ftb/public/modpack/100/6543', ftbVersion());
    json('/ftb/public/modpack/100', { id: 100, name: 'FTB Skies', status: 'success' });
    const source = await resolveOnlineSource({ type: 'ftb', projectId: '100', fileId: '6543' }, trustedFetcher(), apis());
    expect(source).toEqual({
      kind: 'plan',
      plan: {
        name: 'FTB Skies',
        version: '1.5.0',
        gameVersion: '1.20.1',
        loader: 'forge',
        loaderVersion: '47.2.0',
        overrideFolders: [],
        files: [
          { path: 'mods/ftb-library.jar', urls: ['https://dist.modpacks.test/mods/ftb-library.jar'], hashes: { sha1: SHA1 }, size: 100 },
          { path: 'config/ftb.snbt', urls: ['https://dist.modpacks.test/config/ftb.snbt'], hashes: { sha1: SHA1 }, size: 10 },
          { path: 'options.txt', urls: ['https://dist.modpacks.test/options.txt'], hashes: { sha1: SHA1 }, size: 1 },
        ],
      },
    });
  });

  it("falls back to the version's name when the pack answer fails", async () => {
    json('/ftb/public/modpack/100/6543', ftbVersion());
    const source = await resolveOnlineSource({ type: 'ftb', projectId: '100', fileId: '6543' }, trustedFetcher(), apis());
    expect(source.kind === 'plan' && source.plan.name).toBe('1.5.0');
    expect(seen.map((request) => request.url).sort()).toEqual(['/ftb/public/modpack/100', '/ftb/public/modpack/100/6543']);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['an API error', { status: 'error', message: 'Modpack version not found' }, 'MODPACK_SOURCE_INVALID', '"Modpack version not found"'],
    [
      'a path escaping the game folder',
      { files: [{ path: './../../', name: 'evil.jar', url: 'https://cdn.test/e.jar', sha1: SHA1, size: 1 }] },
      'UNSAFE_ENTRY_PATH',
      '"../../evil.jar"',
    ],
    ['an absolute path', { files: [{ path: '/etc/', name: 'passwd', url: 'https://cdn.test/e', sha1: SHA1, size: 1 }] }, 'UNSAFE_ENTRY_PATH', '"/etc/passwd"'],
    [
      'a backslash in the name',
      { files: [{ path: './mods/', name: '..\\evil.jar', url: 'https://cdn.test/e', sha1: SHA1, size: 1 }] },
      'UNSAFE_ENTRY_PATH',
      'backslash',
    ],
    [
      'a hostile path on a server-only file',
      { files: [{ path: '../', name: 'x.jar', url: 'https://cdn.test/e', sha1: SHA1, size: 1, serveronly: true }] },
      'UNSAFE_ENTRY_PATH',
      '"../x.jar"',
    ],
    ['a missing sha1', { files: [{ path: './mods/', name: 'a.jar', url: 'https://cdn.test/a.jar', size: 1 }] }, 'MODPACK_SOURCE_INVALID', 'sha1'],
    ['a missing URL', { files: [{ path: './mods/', name: 'a.jar', url: '', sha1: SHA1, size: 1 }] }, 'MODPACK_SOURCE_INVALID', 'no download URL'],
    [
      'an unknown loader',
      {
        targets: [
          { name: 'minecraft', version: '1.12.2', type: 'game' },
          { name: 'liteloader', version: '1.0', type: 'modloader' },
        ],
      },
      'MODPACK_SOURCE_INVALID',
      '"liteloader"',
    ],
    ['an answer about another version', { id: 1 }, 'MODPACK_SOURCE_INVALID', 'another version'],
  ])('refuses %s', async (_label, change, code, message) => {
    json('/ftb/public/modpack/100/6543', ftbVersion(change));
    json('/ftb/public/modpack/100', { name: 'FTB Skies' });
    const error = await rejection(resolveOnlineSource({ type: 'ftb', projectId: '100', fileId: '6543' }, trustedFetcher(), apis()));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});

describe('resolveOnlineSource: source checks', () => {
  it.each<[string, unknown, unknown]>([
    ['traversal in the project id', '../admin', '1'],
    ['a slash in the file id', '1', 'a/b'],
    ['an encoded dot', '%2e%2e', '1'],
    ['a query', '1', '1?x=1'],
    ['a dot', 'a.b', '1'],
    ['an empty id', '', '1'],
    ['a 65-character id', 'a'.repeat(65), '1'],
    ['a number', 285109, '1'],
    ['a missing file id', '1', undefined],
  ])('refuses %s before any request', async (_label, projectId, fileId) => {
    for (const type of ['modrinth', 'curseforge', 'ftb']) {
      const error = await rejection(resolveOnlineSource({ type, projectId, fileId } as never, trustedFetcher(), apis()));
      expect(error.code).toBe('MODPACK_SOURCE_INVALID');
      expect(error.message).toMatch(/^(projectId|fileId) must be 1 to 64 letters/);
    }
    expect(seen).toEqual([]);
  });

  it('accepts a 64-character id (the bound is not off by one)', async () => {
    const id = 'a'.repeat(64);
    json(`/modrinth/v2/version/${id}`, modrinthVersion({ id, project_id: id }));
    await expect(resolveOnlineSource({ type: 'modrinth', projectId: id, fileId: id }, trustedFetcher(), apis())).resolves.toMatchObject({ kind: 'archive' });
  });

  it('refuses an unknown type before any request, and accepts the short aliases', async () => {
    const error = await rejection(resolveOnlineSource({ type: 'technic', projectId: '1', fileId: '1' } as never, trustedFetcher(), apis()));
    expect(error).toMatchObject({ code: 'MODPACK_SOURCE_INVALID', details: { field: 'type' } });
    expect(seen).toEqual([]);
    json('/modrinth/v2/version/Ver123ab', modrinthVersion());
    await expect(resolveOnlineSource({ type: 'mr', projectId: 'Proj456c', fileId: 'Ver123ab' } as never, trustedFetcher(), apis())).resolves.toMatchObject({
      format: 'mrpack',
    });
  });

  it('is refused by the SSRF guard when the API host is private and not trusted', async () => {
    json('/modrinth/v2/version/Ver123ab', modrinthVersion());
    const untrusted = createJsonFetcher(createGuardedFetcher());
    const error = await rejection(resolveOnlineSource({ type: 'modrinth', projectId: 'Proj456c', fileId: 'Ver123ab' }, untrusted, apis()));
    expect(error.code).toBe('PROXY_PRIVATE_ADDRESS');
    expect(seen).toEqual([]);
  });
});

describe('normalizeSourceType', () => {
  it.each<[unknown, string | undefined]>([
    ['mr', 'modrinth'],
    ['modrinth', 'modrinth'],
    ['cf', 'curseforge'],
    ['curseforge', 'curseforge'],
    ['ftb', 'ftb'],
    ['Modrinth', undefined],
    ['CF', undefined],
    ['technic', undefined],
    ['constructor', undefined],
    ['__proto__', undefined],
    ['', undefined],
    [1, undefined],
    [undefined, undefined],
  ])('%j → %j', (input, expected) => {
    expect(normalizeSourceType(input)).toBe(expected);
  });
});

describe('resolveModpackApis', () => {
  it('fills in the public APIs', () => {
    expect(resolveModpackApis()).toEqual({
      modrinthApiBase: 'https://api.modrinth.com/v2',
      curseforgeApiBase: 'https://api.curseforge.com/v1',
      ftbApiBase: 'https://api.modpacks.ch/public',
    });
    expect(DEFAULT_MODPACK_APIS.curseforgeApiBase).toBe('https://api.curseforge.com/v1');
  });

  it('drops a trailing slash and keeps the key', () => {
    expect(resolveModpackApis({ modrinthApiBase: 'http://mirror.test/modrinth/', curseforgeApiBase: 'https://cf.test', curseforgeApiKey: 'k' })).toEqual({
      modrinthApiBase: 'http://mirror.test/modrinth',
      curseforgeApiBase: 'https://cf.test',
      ftbApiBase: 'https://api.modpacks.ch/public',
      curseforgeApiKey: 'k',
    });
  });

  it.each<[string, ModpackApiOptions, string]>([
    ['an ftp base', { modrinthApiBase: 'ftp://mirror.test/v2' }, 'modrinthApiBase'],
    ['a relative base', { curseforgeApiBase: '/v1' }, 'curseforgeApiBase'],
    ['a base that is no URL', { ftbApiBase: 'not a url' }, 'ftbApiBase'],
    ['a base with a query', { modrinthApiBase: 'https://mirror.test/v2?key=1' }, 'modrinthApiBase'],
    ['a base with an empty query', { modrinthApiBase: 'https://mirror.test/v2?' }, 'modrinthApiBase'],
    ['a base with a fragment', { ftbApiBase: 'https://mirror.test/#x' }, 'ftbApiBase'],
    ['a base with credentials', { curseforgeApiBase: 'https://u:p@cf.test/v1' }, 'curseforgeApiBase'],
    ['a key with a line break', { curseforgeApiKey: 'k\r\nx-evil: 1' }, 'curseforgeApiKey'],
    ['a base that is not a string', { ftbApiBase: 42 as unknown as string }, 'ftbApiBase'],
  ])('refuses %s', (_label, options, field) => {
    let error: unknown;
    try {
      resolveModpackApis(options);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field } });
  });

  it('is applied by the resolvers before any request', async () => {
    const error = await rejection(resolveOnlineSource({ type: 'ftb', projectId: '1', fileId: '1' }, trustedFetcher(), apis({ ftbApiBase: 'file:///etc' })));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(seen).toEqual([]);
  });
});

describe('createJsonFetcher', () => {
  it('sends accept: application/json and parses the body (a byte order mark is fine)', async () => {
    handlers.set('/doc', (_req, res) => void res.writeHead(200).end(`\uFEFF${JSON.stringify({ ok: [1, 2] })}`));
    await expect(trustedFetcher().getJson(`${origin}/doc`, { Accept: 'text/html', 'X-Extra': 'yes' })).resolves.toEqual({ ok: [1, 2] });
    expect(seen[0]?.headers).toMatchObject({ accept: 'application/json', 'x-extra': 'yes' });
  });

  it('passes a body over the limit through as PROXY_BODY_TOO_LARGE', async () => {
    handlers.set('/big', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ pad: 'x'.repeat(2000) })));
    const error = await rejection(trustedFetcher({ limitBytes: 1000 }).getJson(`${origin}/big`));
    expect(error.code).toBe('PROXY_BODY_TOO_LARGE');
  });

  it('passes a timeout through as PROXY_TIMEOUT', async () => {
    handlers.set('/slow', () => undefined);
    const error = await rejection(trustedFetcher({ timeoutMs: 200 }).getJson(`${origin}/slow`));
    expect(error.code).toBe('PROXY_TIMEOUT');
  });

  it('refuses a body that is not UTF-8', async () => {
    handlers.set('/latin1', (_req, res) => void res.writeHead(200).end(Buffer.from([0x22, 0xe9, 0x22])));
    const error = await rejection(trustedFetcher().getJson(`${origin}/latin1`));
    expect(error).toMatchObject({ code: 'MODPACK_SOURCE_INVALID', message: expect.stringContaining('not JSON') as unknown });
  });

  it('refuses options that are not positive integers', () => {
    const guarded = createGuardedFetcher();
    expect(() => createJsonFetcher(guarded, { limitBytes: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => createJsonFetcher(guarded, { timeoutMs: Number.NaN })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
