import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';

const ID = 'com.example.files';
const SECRET = 'TOP-SECRET-MARKER';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `target` as the request target byte for byte. `fetch` and `URL` would resolve `..`, turn
 * `\` into `/` and re-encode, so what they send is not what an attacker's client can send.
 */
function rawGet(origin: string, target: string): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`, 'latin1');
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

async function writeFiles(folder: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), content);
  }
}

const PROBLEM = {
  traversal: 'contains a `..` segment',
  dot: 'contains a `.` segment',
  empty: 'contains an empty segment',
  absolute: 'is absolute',
  backslash: 'contains a backslash',
  nul: 'contains a NUL byte',
  encoded: 'must not percent-encode',
  malformed: 'malformed percent-encoding',
  drive: 'starts with a drive letter',
  reserved: 'reserves for devices',
  encodedId: 'plugin id in a file path must not be percent-encoded',
  badId: 'is not a plugin id',
} as const;

const FILES = `/api/plugins/${ID}/files`;

/** [raw request target, status, code, fragment of the message showing what the server saw]. */
const ATTEMPTS: ReadonlyArray<[string, number, string, string | null]> = [
  [`${FILES}/../secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.traversal],
  [`${FILES}/../../../secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.traversal],
  [`${FILES}/dist/../../com.example.files-evil/secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.traversal],
  [`${FILES}/../../backend/plugins.json`, 400, 'INVALID_ARGUMENT', PROBLEM.traversal],
  [`${FILES}/%2e%2e/%2e%2e/secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.encoded],
  [`${FILES}/%2E%2E%2F%2E%2E%2Fsecret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.encoded],
  [`${FILES}/..%2f..%2fsecret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.encoded],
  [`${FILES}/.%2e/.%2e/secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.encoded],
  [`${FILES}/dist%2findex.html`, 400, 'INVALID_ARGUMENT', PROBLEM.encoded],
  // Decoded once, `%252e%252e` is the literal name `%2e%2e`: no such file, never a parent folder.
  [`${FILES}/%252e%252e/%252e%252e/secret.txt`, 404, 'NOT_FOUND', null],
  [`${FILES}/%252e%252e%252f%252e%252e%252fsecret.txt`, 404, 'NOT_FOUND', null],
  [`${FILES}/..%5c..%5csecret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.encoded],
  [`${FILES}/..\\..\\secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.backslash],
  [`${FILES}/dist\\index.html`, 400, 'INVALID_ARGUMENT', PROBLEM.backslash],
  [`${FILES}/dist/index.html%00.png`, 400, 'INVALID_ARGUMENT', PROBLEM.nul],
  [`${FILES}/%00`, 400, 'INVALID_ARGUMENT', PROBLEM.nul],
  [`${FILES}//secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.absolute],
  [`${FILES}//etc/passwd`, 400, 'INVALID_ARGUMENT', PROBLEM.absolute],
  [`${FILES}/dist//index.html`, 400, 'INVALID_ARGUMENT', PROBLEM.empty],
  [`${FILES}/dist/`, 400, 'INVALID_ARGUMENT', PROBLEM.empty],
  [`${FILES}/./dist/index.html`, 400, 'INVALID_ARGUMENT', PROBLEM.dot],
  [`${FILES}/dist/./index.html`, 400, 'INVALID_ARGUMENT', PROBLEM.dot],
  [`${FILES}/%c0%ae%c0%ae/secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.malformed],
  [`${FILES}/%`, 400, 'INVALID_ARGUMENT', PROBLEM.malformed],
  [`${FILES}/C:/Windows/win.ini`, 400, 'INVALID_ARGUMENT', PROBLEM.drive],
  [`${FILES}/nul`, 400, 'INVALID_ARGUMENT', PROBLEM.reserved],
  [`/api/plugins/com%2eexample%2efiles/files/dist/index.html`, 400, 'INVALID_ARGUMENT', PROBLEM.encodedId],
  [`/api/plugins/..%2fcom.example.files-evil/files/secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.badId],
  [`/api/plugins/../files/secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.badId],
  [`/api/plugins/com.example.files.bak-1.0.0/files/secret.txt`, 400, 'INVALID_ARGUMENT', PROBLEM.badId],
  [`/api/plugins/COM.EXAMPLE.FILES/files/dist/index.html`, 400, 'INVALID_ARGUMENT', PROBLEM.badId],
];

describe('GET /api/plugins/:id/files/*path confinement', () => {
  let server: TestBackend;
  let folder: string;

  beforeAll(async () => {
    server = await startTestBackend();
    const plugins = join(server.dataDirectory, 'plugins');
    folder = join(plugins, ID);
    await writeFiles(folder, {
      'manifest.json': JSON.stringify(sampleManifest({ id: ID })),
      'dist/index.html': '<p>hello</p>',
      'settings.json': JSON.stringify({ token: SECRET }),
    });
    // Folders sharing the plugin folder's name as a prefix: a naive startsWith check lets them in.
    await writeFiles(join(plugins, 'com.example.files-evil'), { 'secret.txt': SECRET });
    await writeFiles(join(plugins, 'com.example.files.bak-1.0.0'), { 'secret.txt': SECRET });
    await writeFiles(server.dataDirectory, { 'secret.txt': SECRET, 'backend/plugins.json': SECRET });
    // Symbolic links inside the plugin folder, pointing outside and inside.
    await symlink(join(server.dataDirectory, 'secret.txt'), join(folder, 'escape.txt'));
    await symlink('../com.example.files-evil/secret.txt', join(folder, 'sibling.txt'));
    await symlink('../com.example.files-evil', join(folder, 'sibling-folder'));
    await symlink(join(plugins, 'com.example.files.bak-1.0.0'), join(folder, 'dist', 'snapshot'));
    await symlink('index.html', join(folder, 'dist', 'alias.html'));
    await symlink('settings.json', join(folder, 'settings-alias.json'));
    await symlink('/etc/passwd', join(folder, 'passwd'));
    // A plugin folder that is itself a link to a valid plugin elsewhere.
    const elsewhere = join(server.dataDirectory, 'elsewhere');
    await writeFiles(elsewhere, { 'manifest.json': JSON.stringify(sampleManifest({ id: 'com.example.linked' })), 'index.html': SECRET });
    await symlink(elsewhere, join(plugins, 'com.example.linked'));
  });
  afterAll(() => server.close());

  it('serves a normal file through the same raw client', async () => {
    const response = await rawGet(server.origin, `${FILES}/dist/index.html`);
    expect(response.status).toBe(200);
    expect(response.body).toBe('<p>hello</p>');
  });

  it.each(ATTEMPTS)('refuses %s with %i %s', async (target, status, code, fragment) => {
    const response = await rawGet(server.origin, target);
    expect(response.status).toBe(status);
    expect(response.body).not.toContain(SECRET);
    expect(response.body).not.toContain('root:');
    const body = JSON.parse(response.body) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    // The message shows the server saw the raw form (the client did not normalize it away).
    if (fragment) expect(body.error.message).toContain(fragment);
    expect(response.headers['content-security-policy']).toBe('sandbox allow-scripts');
  });

  it('refuses an absolute-form request target carrying a traversal', async () => {
    const response = await rawGet(server.origin, `${server.origin}${FILES}/../secret.txt`);
    expect(response.status).toBe(400);
    expect(response.body).not.toContain(SECRET);
  });

  it('is not reached by a raw NUL or space, which the HTTP parser rejects first', async () => {
    for (const target of [`${FILES}/dist/index.html\0.png`, `${FILES}/../ secret.txt`]) {
      const response = await rawGet(server.origin, target);
      expect(response.status).toBe(400);
      expect(response.body).not.toContain(SECRET);
    }
  });

  it.each(['escape.txt', 'sibling.txt', 'sibling-folder/secret.txt', 'dist/snapshot/secret.txt', 'passwd', 'dist/alias.html', 'settings-alias.json'])(
    'never follows the symbolic link %s (outside or inside)',
    async (path) => {
      const response = await rawGet(server.origin, `${FILES}/${path}`);
      expect(response.status).toBe(404);
      expect(response.body).not.toContain(SECRET);
      expect(response.body).not.toContain('root:');
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    },
  );

  it('serves nothing from a plugin folder that is itself a symbolic link', async () => {
    const response = await rawGet(server.origin, '/api/plugins/com.example.linked/files/index.html');
    expect(response.status).toBe(404);
    expect(response.body).not.toContain(SECRET);
  });

  it('keeps the sibling and snapshot folders unreachable but the plugin itself served', async () => {
    // The sibling is not an installed plugin (no manifest); the snapshot id is not a plugin id.
    expect((await rawGet(server.origin, '/api/plugins/com.example.files-evil/files/secret.txt')).status).toBe(404);
    expect((await rawGet(server.origin, `${FILES}/dist/index.html`)).status).toBe(200);
  });
});
