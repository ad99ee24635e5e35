import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';

let running: TestBackend | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: TestBackendOptions = {}): Promise<TestBackend> {
  running = await startTestBackend(options);
  return running;
}

/** `NAME` etc. read straight from the file, independently of the backend's parser. */
function osReleaseField(key: string): string | undefined {
  const text = readFileSync('/etc/os-release', 'utf8');
  const match = new RegExp(`^${key}=(.*)$`, 'm').exec(text);
  return match?.[1]?.replace(/^"(.*)"$/, '$1');
}

const STRING_FIELDS = [
  'Os',
  'Architecture',
  'OsName',
  'OsVersion',
  'OsVersionId',
  'OsDisplayName',
  'GitCommit',
  'LauncherName',
  'LauncherVersion',
  'VersionType',
];

describe('GET /api/systeminfo', () => {
  it('reports every field of the specification with its type', async () => {
    const backend = await start();
    const response = await backend.api('/api/systeminfo');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const info = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(info).sort()).toEqual([...STRING_FIELDS, 'Memory', 'AvailableMemory', 'Developers', 'CoreDependencies'].sort());
    for (const field of STRING_FIELDS) expect(typeof info[field], field).toBe('string');
    expect(info.OsName).not.toBe('');
    expect(Number.isSafeInteger(info.Memory)).toBe(true);
    expect(Number.isSafeInteger(info.AvailableMemory)).toBe(true);
    expect(info.Memory as number).toBeGreaterThan(info.AvailableMemory as number);
    expect(info.AvailableMemory as number).toBeGreaterThan(0);
    expect(info).toMatchObject({
      LauncherName: 'Test Launcher',
      LauncherVersion: '1.2.3-beta.4',
      VersionType: 'beta',
      GitCommit: 'abc1234',
      Developers: [],
      CoreDependencies: [],
      Architecture: process.arch === 'ia32' ? 'x86' : process.arch,
    });
  });

  it.runIf(process.platform === 'linux' && existsSync('/etc/os-release'))('reads the Linux description from /etc/os-release', async () => {
    const backend = await start();
    const info = (await (await backend.api('/api/systeminfo')).json()) as Record<string, unknown>;
    expect(info.Os).toBe('Linux');
    expect(info.OsName).toBe(osReleaseField('NAME') ?? 'Linux');
    if (osReleaseField('VERSION_ID')) expect(info.OsVersionId).toBe(osReleaseField('VERSION_ID'));
    if (osReleaseField('VERSION')) expect(info.OsVersion).toBe(osReleaseField('VERSION'));
    if (osReleaseField('PRETTY_NAME')) expect(info.OsDisplayName).toBe(osReleaseField('PRETTY_NAME'));
  });

  it('reports the launcher identity it was given, credits included', async () => {
    const backend = await start({
      launcher: {
        name: 'Acme Launcher',
        version: '2.0.0-rc.1+build7',
        developers: [{ name: 'Ada', role: 'Lead' }],
        coreDependencies: [{ name: 'koa', version: '3.3.0', license: 'MIT' }],
      },
    });
    const info = (await (await backend.api('/api/systeminfo')).json()) as Record<string, unknown>;
    expect(info).toMatchObject({
      LauncherName: 'Acme Launcher',
      LauncherVersion: '2.0.0-rc.1+build7',
      VersionType: 'rc',
      Developers: [{ name: 'Ada', role: 'Lead' }],
      CoreDependencies: [{ name: 'koa', version: '3.3.0', license: 'MIT' }],
    });
    expect(info, 'no commit given: the field is left out, not an empty placeholder').not.toHaveProperty('GitCommit');
  });

  it('needs the token', async () => {
    const backend = await start();
    const response = await backend.api('/api/systeminfo', { token: null });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /api/system/info', () => {
  it('answers the same object as /api/systeminfo', async () => {
    const backend = await start();
    const first = (await (await backend.api('/api/systeminfo')).json()) as Record<string, unknown>;
    const alias = (await (await backend.api('/api/system/info')).json()) as Record<string, unknown>;
    // Available memory moves between two calls; everything else is identical.
    const { AvailableMemory: a, ...restFirst } = first;
    const { AvailableMemory: b, ...restAlias } = alias;
    expect(restAlias).toEqual(restFirst);
    expect(typeof a).toBe('number');
    expect(typeof b).toBe('number');
  });
});

describe('POST /api/system/open-url', () => {
  function recordingOpener(): { opened: string[]; openUrl: (url: string) => Promise<void> } {
    const opened: string[] = [];
    return { opened, openUrl: async (url) => void opened.push(url) };
  }

  it.each([
    ['https://example.com/path?q=1&r=2#frag', 'https://example.com/path?q=1&r=2#frag'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://Example.COM/a b', 'https://example.com/a%20b'],
  ])('opens %s through the opener (normalized)', async (url, expected) => {
    const opener = recordingOpener();
    const backend = await start({ openUrl: opener.openUrl });
    const response = await backend.api('/api/system/open-url', { json: { url } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ opened: true });
    expect(opener.opened).toEqual([expected]);
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///etc/passwd'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['ftp:', 'ftp://example.com/file'],
    ['a custom protocol', 'steam://run/123'],
    ['a relative path', '/relative/path'],
    ['a bare host', 'example.com'],
    ['garbage', 'not a url at all'],
    ['an empty string', ''],
    ['whitespace', '   '],
    ['a number', 42],
    ['null', null],
    ['an object', { href: 'https://example.com' }],
  ])('refuses %s with 400 INVALID_ARGUMENT', async (_label, url) => {
    const opener = recordingOpener();
    const backend = await start({ openUrl: opener.openUrl });
    const response = await backend.api('/api/system/open-url', { json: { url } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toMatch(/url|http/i);
    expect(opener.opened).toEqual([]);
  });

  it('refuses a body without url, and a body that is not a JSON object', async () => {
    const opener = recordingOpener();
    const backend = await start({ openUrl: opener.openUrl });
    expect((await backend.api('/api/system/open-url', { json: {} })).status).toBe(400);
    expect((await backend.api('/api/system/open-url', { json: ['https://example.com'] })).status).toBe(400);
    const plain = await backend.api('/api/system/open-url', { method: 'POST', body: 'https://example.com', headers: { 'Content-Type': 'text/plain' } });
    expect(plain.status).toBe(400);
    expect(opener.opened).toEqual([]);
  });

  it('answers 500 INTERNAL_ERROR without details when the opener fails', async () => {
    const backend = await start({ openUrl: () => Promise.reject(new Error('spawn xdg-open ENOENT /usr/secret')) });
    const response = await backend.api('/api/system/open-url', { json: { url: 'https://example.com' } });
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INTERNAL_ERROR');
    expect(body.error.message).not.toContain('secret');
  });

  it.runIf(process.platform === 'linux')('starts the platform opener without launcher secrets in its environment', async () => {
    // A stand-in `xdg-open` first on PATH writes the environment it got, then exits with 7 (how
    // xdg-open says "no browser"): the plugin hears that the URL was not opened.
    const folder = await mkdtemp(join(tmpdir(), 'opener-env-'));
    const written = join(folder, 'environment.txt');
    await writeFile(join(folder, 'xdg-open'), `#!/bin/sh\nenv > '${written}'\nexit 7\n`, { mode: 0o755 });
    const token = 'opener-test-token-0123456789abcdef';
    const saved = {
      PATH: process.env.PATH,
      LAUNCHER_API_TOKEN: process.env.LAUNCHER_API_TOKEN,
      REGISTRY_ROOT_PRIVATE_KEY: process.env.REGISTRY_ROOT_PRIVATE_KEY,
      OPENER_TEST_HARMLESS: process.env.OPENER_TEST_HARMLESS,
    };
    process.env.PATH = `${folder}:${process.env.PATH ?? ''}`;
    process.env.LAUNCHER_API_TOKEN = token;
    process.env.REGISTRY_ROOT_PRIVATE_KEY = 'root-key-secret';
    process.env.OPENER_TEST_HARMLESS = 'kept';
    let exited: (message: string) => void = () => {};
    const exitLogged = new Promise<string>((resolve) => (exited = resolve));
    const logger = { info: () => {}, error: () => {}, warn: (message: string) => exited(message) };
    try {
      const backend = await start({ token, logger });
      const response = await backend.api('/api/system/open-url', { json: { url: 'https://example.com/' } });
      expect(response.status).toBe(502);
      expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({
        code: 'URL_OPEN_FAILED',
        message: expect.stringMatching(/exited with status 7/),
      });
      expect(await exitLogged).toContain('status 7');
      const environment = await readFile(written, 'utf8');
      expect(environment).toContain('OPENER_TEST_HARMLESS=kept');
      expect(environment).not.toContain(token);
      expect(environment).not.toMatch(/^(LAUNCHER_|REGISTRY_|PLUGIN_ROOT_|PLUGINCTL_)/m);
      expect(environment).not.toContain('root-key-secret');
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('needs the token', async () => {
    const opener = recordingOpener();
    const backend = await start({ openUrl: opener.openUrl });
    const response = await backend.api('/api/system/open-url', { json: { url: 'https://example.com' }, token: null });
    expect(response.status).toBe(401);
    expect(opener.opened).toEqual([]);
  });
});
