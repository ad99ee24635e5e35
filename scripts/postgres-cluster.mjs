// A throwaway PostgreSQL cluster from Debian's packages, for one test run (decisions 11). The
// server refuses to run as root, so the cluster is initialised and started as the `postgres` user in
// a temporary directory that user owns. It listens on 127.0.0.1 on a free port, where a superuser
// role logs in with a password, and on a unix socket in that directory. `stop()` stops it and
// deletes the directory, and so does this process's exit when nobody called it.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './browser-engines.mjs';

/** The operating-system user Debian's package creates to run the server. */
const SERVER_USER = 'postgres';
/** The superuser role the run's tests log in as over TCP. */
export const ADMIN_ROLE = 'plughost';

/**
 * Debian's server programs: the newest `/usr/lib/postgresql/<major>/bin` holding initdb, pg_ctl and
 * postgres.
 *
 * @returns `{bin, major}`, or null when the `postgresql` package is not installed.
 */
export function findPostgresBinaries(root = '/usr/lib/postgresql') {
  let majors;
  try {
    majors = readdirSync(root).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  majors.sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (['initdb', 'pg_ctl', 'postgres'].every((program) => existsSync(join(bin, program)))) return { bin, major: Number(major) };
  }
  return null;
}

function serverUser() {
  try {
    const id = (flag) => Number(execFileSync('id', [flag, SERVER_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw Object.assign(new Error(`There is no '${SERVER_USER}' user to run the server as; reinstall Debian's postgresql package (it creates that user).`), {
      code: 'POSTGRES_START_FAILED',
    });
  }
}

// The cluster's directory must be reachable by the postgres user: TMPDIR may point into root's home.
function worldTraversableTmpdir() {
  const preferred = tmpdir();
  return (statSync(preferred).mode & 0o001) !== 0 ? preferred : '/tmp';
}

function runAsServerUser(bin, program, args) {
  return new Promise((resolve) => {
    execFile('runuser', ['-u', SERVER_USER, '--', join(bin, program), ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim() }),
    );
  });
}

function lastLines(path, count = 15) {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-count).join('\n');
  } catch {
    return '';
  }
}

function startFailed(message) {
  return Object.assign(new Error(message), { code: 'POSTGRES_START_FAILED' });
}

/**
 * Initialises and starts a cluster in a new temporary directory.
 *
 * @param {{bin: string}} binaries where initdb and pg_ctl are ({@link findPostgresBinaries}).
 * @returns {Promise<{adminUrl: string, directory: string, stop: () => void}>} `adminUrl` logs in as
 *   the superuser role over TCP; `stop()` is synchronous so that it can also run at exit.
 * @throws Error with code POSTGRES_START_FAILED and the server's own words when a step fails.
 */
export async function startDebianCluster({ bin }) {
  const owner = serverUser();
  const directory = mkdtempSync(join(worldTraversableTmpdir(), 'plughost-postgres-'));
  const data = join(directory, 'data');
  const log = join(directory, 'server.log');
  let running = false;
  const stop = () => {
    process.off('exit', stop);
    if (running) spawnSync('runuser', ['-u', SERVER_USER, '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'], { stdio: 'ignore' });
    running = false;
    rmSync(directory, { recursive: true, force: true });
  };
  // pg_ctl detaches the server: without this, a run that ends without teardown would leave it running.
  process.once('exit', stop);
  try {
    chownSync(directory, owner.uid, owner.gid);
    const password = randomBytes(18).toString('base64url');
    const passwordFile = join(directory, 'password');
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    chownSync(passwordFile, owner.uid, owner.gid);
    // Trust on the socket (only root and postgres can enter the directory); a password over TCP.
    // --no-sync and, below, fsync off: the cluster is deleted at the end, durability buys nothing.
    const init = await runAsServerUser(bin, 'initdb', [
      '-D',
      data,
      `--username=${ADMIN_ROLE}`,
      `--pwfile=${passwordFile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    rmSync(passwordFile, { force: true });
    if (!init.ok) throw startFailed(`initdb failed in ${directory}:\n${init.output}`);
    // A port taken between freePort() and the server's bind is retried with another one.
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      const options = `-p ${port} -k '${directory}' -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      const started = await runAsServerUser(bin, 'pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start']);
      if (started.ok) {
        running = true;
        return { adminUrl: `postgres://${ADMIN_ROLE}:${password}@127.0.0.1:${port}/postgres`, directory, stop };
      }
      const said = lastLines(log);
      if (attempt < 3 && /could not bind|already in use/i.test(said)) continue;
      throw startFailed(`pg_ctl could not start the server (data in ${data}):\n${said || started.output}`);
    }
  } catch (error) {
    stop();
    throw error;
  }
}
