import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// `npm test` starts with this check; when it cannot find or install Chromium it must say how to fix it.
describe('scripts/ensure-chromium.mjs', () => {
  it('prints the Chromium it found', async () => {
    const { stdout } = await run(process.execPath, ['scripts/ensure-chromium.mjs']);
    expect(stdout.trim()).toMatch(/chrom/i);
  });

  it('stops with a clear message when CHROME_PATH points nowhere', async () => {
    const failure = await run(process.execPath, ['scripts/ensure-chromium.mjs'], {
      env: { ...process.env, CHROME_PATH: '/nonexistent/chromium' },
    }).catch((error: unknown) => error as { code: number; stderr: string });
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('CHROMIUM_MISSING: CHROME_PATH is set to /nonexistent/chromium');
  });
});
