import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the demo launcher's built server lives inside a checkout of this repository. */
export const DEMO_SERVER = join('demo-launcher', 'dist', 'server.mjs');

function findUp(start: string): string | undefined {
  let folder = resolve(start);
  for (;;) {
    if (existsSync(join(folder, DEMO_SERVER))) return folder;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/**
 * The root of the repository whose demo launcher `debug` starts: found from the working folder
 * up, else from where this pluginctl file lies (`pluginctl/dist/` inside the repository).
 */
export function findDemoRepository(cwd: string = process.cwd(), moduleUrl: string = import.meta.url): string | undefined {
  return findUp(cwd) ?? (moduleUrl.startsWith('file:') ? findUp(dirname(fileURLToPath(moduleUrl))) : undefined);
}

/** True when this process runs as root, where Chromium refuses to start without `--no-sandbox`. */
export function runningAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * Chromium's command line for the demo launcher's page: the debugging port, a fresh profile, and
 * only the flags this needs. The background-networking flags stop Chromium's calls home, which a
 * closed network refuses over and over; `--no-sandbox` only as root, where Chromium requires it.
 */
export function chromiumArguments(options: { port: number; profile: string; url: string; headless: boolean; root: boolean }): string[] {
  return [
    `--remote-debugging-port=${options.port}`,
    `--user-data-dir=${options.profile}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    ...(options.root ? ['--no-sandbox'] : []),
    ...(options.headless ? ['--headless=new', '--disable-gpu'] : []),
    options.url,
  ];
}
