// The three browser engines the tests run in (decisions 11): Chromium as it ships, Firefox ESR
// (over WebDriver BiDi) and WebKitGTK (WebKitWebDriver driving MiniBrowser under Xvfb). Finds each,
// installs Debian's packages when they are missing and apt can run, and starts WebKit's driver.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { findChromium } from './chromium.mjs';

/** Every engine, in the order the suites run. */
export const ENGINES = ['chromium', 'firefox', 'webkit'];

/** What each engine needs from Debian, and where its files are. */
const DEBIAN_PACKAGES = {
  chromium: ['chromium'],
  firefox: ['firefox-esr'],
  webkit: ['webkit2gtk-driver', 'xvfb'],
};

// The browsers report the locale of LANG; C would make WebKit format numbers without separators.
export const BROWSER_LOCALE_ENV = { LANG: 'en_US.UTF-8', LANGUAGE: 'en_US:en', LC_ALL: 'en_US.UTF-8' };

/** Firefox: FIREFOX_PATH when set, else Debian's ESR or a plain firefox. */
export function findFirefox() {
  if (process.env.FIREFOX_PATH) return existsSync(process.env.FIREFOX_PATH) ? process.env.FIREFOX_PATH : null;
  return ['/usr/bin/firefox-esr', '/usr/bin/firefox'].find((path) => existsSync(path)) ?? null;
}

/** MiniBrowser of WebKitGTK 4.1 or 4.0, whatever the multiarch folder. */
function findMiniBrowser() {
  if (process.env.WEBKIT_MINIBROWSER_PATH) return existsSync(process.env.WEBKIT_MINIBROWSER_PATH) ? process.env.WEBKIT_MINIBROWSER_PATH : null;
  let folders = [];
  try {
    folders = readdirSync('/usr/lib')
      .filter((name) => name.endsWith('-linux-gnu'))
      .map((name) => `/usr/lib/${name}`);
  } catch {
    return null;
  }
  for (const folder of folders) {
    for (const api of ['webkit2gtk-4.1', 'webkit2gtk-4.0']) {
      const candidate = `${folder}/${api}/MiniBrowser`;
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

/** WebKitGTK: the driver, MiniBrowser and an X server for it (MiniBrowser has no headless mode). */
export function findWebKit() {
  const driver = ['/usr/bin/WebKitWebDriver'].find((path) => existsSync(path)) ?? null;
  const miniBrowser = findMiniBrowser();
  const xvfb = ['/usr/bin/Xvfb'].find((path) => existsSync(path)) ?? null;
  return driver && miniBrowser && xvfb ? { driver, miniBrowser, xvfb } : null;
}

function find(engine) {
  if (engine === 'chromium') return findChromium();
  if (engine === 'firefox') return findFirefox();
  return findWebKit();
}

/** Debian as root: apt-get is there and may install (decisions 11). Shared with postgres-server.mjs. */
export function canRunApt() {
  return existsSync('/usr/bin/apt-get') && typeof process.getuid === 'function' && process.getuid() === 0;
}

function apt(args) {
  return spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
}

/**
 * Refreshes the package lists and installs `packages` with their recommended packages, the output
 * on this terminal. Only call it where {@link canRunApt} holds.
 *
 * @returns whether both apt-get steps succeeded.
 */
export function aptInstall(packages) {
  return apt(['update', '-qq']) && apt(['install', '-y', '-qq', ...packages]);
}

/**
 * Finds each engine of `engines`, installing the missing ones with apt-get on Debian as root.
 *
 * @returns `{found: {engine: info}, skipped: [{engine, reason}]}`; an engine is skipped only where
 *   it cannot be installed (not Debian, not root), and the reason says how to get it.
 * @throws Error when an install was tried and failed: decisions 11 make that a failed run.
 */
export function ensureEngines(engines = ENGINES) {
  // A path the user set is a request, not a hint: pointing nowhere is an error, never a skip.
  for (const [variable, engine] of [
    ['CHROME_PATH', 'chromium'],
    ['FIREFOX_PATH', 'firefox'],
    ['WEBKIT_MINIBROWSER_PATH', 'webkit'],
  ]) {
    const path = process.env[variable];
    if (engines.includes(engine) && path && !existsSync(path))
      throw new Error(`${variable} is set to ${path}, but no file is there. Point it at the ${engine} executable, or unset it.`);
  }
  const found = {};
  const skipped = [];
  const missing = engines.filter((engine) => {
    const info = find(engine);
    if (info) found[engine] = info;
    return !info;
  });
  if (missing.length === 0) return { found, skipped };
  if (!canRunApt()) {
    for (const engine of missing) {
      skipped.push({
        engine,
        reason: `not installed (Debian: apt-get install ${DEBIAN_PACKAGES[engine].join(' ')}${engine === 'chromium' ? '; or set CHROME_PATH' : engine === 'firefox' ? '; or set FIREFOX_PATH' : ''})`,
      });
    }
    return { found, skipped };
  }
  const packages = missing.flatMap((engine) => DEBIAN_PACKAGES[engine]);
  console.error(`Browser engines missing (${missing.join(', ')}); installing Debian's ${packages.join(', ')} (apt-get)...`);
  // With the recommended packages (Mesa's drivers, GStreamer, xauth): WebKitGTK under Xvfb was
  // tested with them, and they are what a desktop has.
  const ok = aptInstall(packages);
  for (const engine of missing) {
    const info = find(engine);
    if (!ok || !info)
      throw new Error(`Installing ${DEBIAN_PACKAGES[engine].join(' ')} with apt-get failed (see the output above); install it by hand to test in ${engine}.`);
    found[engine] = info;
  }
  return { found, skipped };
}

/**
 * The engines a run asks for: `--engine NAME` arguments (repeatable, or comma-separated), else
 * PLUGHOST_ENGINES (comma-separated), else all.
 */
export function requestedEngines(env = process.env, argv = []) {
  const fromArgs = argv.flatMap((arg, index) =>
    arg === '--engine' ? [argv[index + 1] ?? ''] : arg.startsWith('--engine=') ? [arg.slice('--engine='.length)] : [],
  );
  if (argv.some((arg, index) => arg === '--engine' && (argv[index + 1] === undefined || argv[index + 1].startsWith('--'))))
    throw new Error(`--engine needs a name: ${ENGINES.join(', ')}`);
  const source = fromArgs.length > 0 ? fromArgs.join(',') : (env.PLUGHOST_ENGINES ?? '');
  const wanted = source
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !ENGINES.includes(name));
  if (unknown.length > 0) throw new Error(`Unknown engine ${unknown.join(', ')}: use ${ENGINES.join(', ')}`);
  return wanted.length > 0 ? wanted : ENGINES;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the caller binds it next). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function waitForPort(port, child, what, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`${what} exited (${child.exitCode}) before it listened`));
      fetch(`http://127.0.0.1:${port}/status`)
        .then(() => resolve())
        .catch(() => (Date.now() > until ? reject(new Error(`${what} did not listen on ${port} within ${timeoutMs} ms`)) : setTimeout(attempt, 100)));
    };
    attempt();
  });
}

/** Picks an X display number that no X server holds. */
function freeDisplay() {
  for (let display = 99; display < 199; display += 1) {
    if (!existsSync(`/tmp/.X${display}-lock`) && !existsSync(`/tmp/.X11-unix/X${display}`)) return display;
  }
  throw new Error('No free X display between :99 and :198');
}

/**
 * Starts Xvfb and WebKitWebDriver on free ports for MiniBrowser, and stops both with `stop()` (also
 * when this process exits).
 *
 * @returns `{port, capabilities, stop}` for a WebDriver client.
 */
export async function startWebKitDriver(webkit = findWebKit()) {
  if (!webkit) throw new Error('WebKitGTK is not installed (apt-get install webkit2gtk-driver xvfb)');
  const display = freeDisplay();
  const xvfb = spawn(webkit.xvfb, [`:${display}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  const port = await freePort();
  const env = { ...process.env, ...BROWSER_LOCALE_ENV, DISPLAY: `:${display}` };
  const driver = spawn(webkit.driver, [`--port=${port}`, '--host=127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let driverErrors = '';
  driver.stderr.on('data', (chunk) => (driverErrors = (driverErrors + chunk).slice(-4000)));
  const stop = () => {
    driver.kill('SIGTERM');
    xvfb.kill('SIGTERM');
  };
  process.once('exit', stop);
  try {
    await waitForPort(port, driver, 'WebKitWebDriver');
  } catch (error) {
    stop();
    throw new Error(`${error.message}\n${driverErrors}`);
  }
  return {
    port,
    capabilities: {
      browserName: 'MiniBrowser',
      'wdio:enforceWebDriverClassic': true,
      'webkitgtk:browserOptions': { binary: webkit.miniBrowser, args: ['--automation'] },
    },
    stop,
  };
}

/** One line per engine for people: its executable and version. */
function describe(engine, info) {
  const binary = engine === 'webkit' ? info.miniBrowser : info;
  let version = '';
  try {
    // WebKitWebDriver has no --version; the WebKitGTK library package says it.
    version =
      engine === 'webkit'
        ? // biome-ignore lint/suspicious/noTemplateCurlyInString: ${Version} is dpkg-query's format syntax
          `WebKitGTK ${execFileSync('dpkg-query', ['-W', '-f=${Version}', 'libwebkit2gtk-4.1-0'], { encoding: 'utf8' }).trim()}`
        : execFileSync(binary, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    version = 'version unknown';
  }
  return `${engine}: ${binary} (${version})`;
}

// `node scripts/browser-engines.mjs [--engine NAME]...`: finds (and on Debian as root installs)
// the engines, prints one line each, and names the ones skipped. Exit 1 when an install failed or
// a configured path points nowhere, 2 on a bad argument.
if (import.meta.url === `file://${process.argv[1]}`) {
  let engines;
  try {
    engines = requestedEngines(process.env, process.argv.slice(2));
  } catch (error) {
    console.error(`ENGINE_UNKNOWN: ${error.message}`);
    process.exit(2);
  }
  try {
    const { found, skipped } = ensureEngines(engines);
    for (const [engine, info] of Object.entries(found)) console.log(describe(engine, info));
    for (const { engine, reason } of skipped) console.error(`ENGINE_SKIPPED: ${engine}: ${reason}`);
  } catch (error) {
    console.error(`ENGINE_MISSING: ${error.message}`);
    process.exit(1);
  }
}
