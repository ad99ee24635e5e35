import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module shared with the runner scripts
import { requestedEngines } from '../../../scripts/browser-engines.mjs';

const run = promisify(execFile);
type Failure = { code: number; stderr: string };

// `npm test` starts with this check: it finds (or installs) the three engines, and when it cannot
// it says how to fix it.
describe('scripts/browser-engines.mjs', () => {
  it('prints each engine it found with its executable and version', async () => {
    const { stdout } = await run(process.execPath, ['scripts/browser-engines.mjs']);
    expect(stdout).toMatch(/^chromium: .*chrom.*\(/im);
    expect(stdout).toMatch(/^firefox: .*firefox.*\(Mozilla Firefox/im);
    expect(stdout).toMatch(/^webkit: .*MiniBrowser \(WebKitGTK \d+\.\d+/im);
  });

  it('checks only the engines asked for', async () => {
    const { stdout } = await run(process.execPath, ['scripts/browser-engines.mjs', '--engine', 'firefox']);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stdout).toMatch(/^firefox: /);
  });

  it('stops with a clear message when CHROME_PATH points nowhere', async () => {
    const failure = (await run(process.execPath, ['scripts/browser-engines.mjs'], { env: { ...process.env, CHROME_PATH: '/nonexistent/chromium' } }).catch(
      (error: unknown) => error,
    )) as Failure;
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('ENGINE_MISSING: CHROME_PATH is set to /nonexistent/chromium, but no file is there');
  });

  it('refuses an unknown engine name with the list of known ones (exit 2)', async () => {
    const failure = (await run(process.execPath, ['scripts/browser-engines.mjs', '--engine', 'trident']).catch((error: unknown) => error)) as Failure;
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('Unknown engine trident: use chromium, firefox, webkit');
  });

  it('reads --engine arguments before PLUGHOST_ENGINES, and all engines by default', () => {
    expect(requestedEngines({}, [])).toEqual(['chromium', 'firefox', 'webkit']);
    expect(requestedEngines({ PLUGHOST_ENGINES: 'webkit' }, [])).toEqual(['webkit']);
    expect(requestedEngines({ PLUGHOST_ENGINES: 'webkit' }, ['--engine', 'firefox', '--engine=chromium'])).toEqual(['firefox', 'chromium']);
    expect(() => requestedEngines({}, ['--engine'])).toThrow(/--engine needs a name/);
  });
});
