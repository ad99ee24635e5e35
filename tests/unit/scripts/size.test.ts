import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
type Failure = { code: number; stdout: string; stderr: string };

// `npm test` runs scripts/size.mjs; these tests make sure its check can fail, so a bundle that
// outgrows its budget cannot pass unnoticed.
describe('scripts/size.mjs', () => {
  it('prints each bundle with its budget and exits 0 within the budgets', async () => {
    const { stdout } = await run(process.execPath, ['scripts/size.mjs']);
    expect(stdout).toMatch(/^size: host\+3 elements \d+\.\d KB \/ [\d.]+ KB \(\+\d+\.\d KB loaded on demand\); guest runtime \d+\.\d KB \/ [\d.]+ KB$/m);
  });

  it('exits 1 naming the bundle and its biggest inputs when a budget is too small', async () => {
    const env = { ...process.env, PLUGHOST_SIZE_BUDGET_HOST_KB: '5' };
    const failure = (await run(process.execPath, ['scripts/size.mjs'], { env }).catch((error: unknown) => error)) as Failure;
    expect(failure.code).toBe(1);
    expect(failure.stdout).toMatch(/host\+3 elements \d+\.\d KB \/ 5 KB/);
    expect(failure.stderr).toMatch(/BUDGET_EXCEEDED: host\+3 elements is \d+\.\d KB min\+gzip, over its 5 KB budget/);
    expect(failure.stderr).toContain('node_modules/penpal');
    expect(failure.stderr).not.toContain('guest runtime');
  });

  it('checks the guest runtime on its own budget', async () => {
    const env = { ...process.env, PLUGHOST_SIZE_BUDGET_GUEST_KB: '1' };
    const failure = (await run(process.execPath, ['scripts/size.mjs'], { env }).catch((error: unknown) => error)) as Failure;
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(/BUDGET_EXCEEDED: guest runtime is \d+\.\d KB min\+gzip, over its 1 KB budget/);
  });

  it('refuses a budget that is not a positive number (exit 2)', async () => {
    const env = { ...process.env, PLUGHOST_SIZE_BUDGET_HOST_KB: 'thirty' };
    const failure = (await run(process.execPath, ['scripts/size.mjs'], { env }).catch((error: unknown) => error)) as Failure;
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('PLUGHOST_SIZE_BUDGET_HOST_KB must be a positive number of KB (got "thirty")');
  });

  it('leaves the host bundle free of the semver package and the manifest validator', async () => {
    const { stdout } = await run(process.execPath, ['scripts/size.mjs', '--verbose'], { env: { ...process.env } });
    const host = stdout.slice(0, stdout.indexOf('guest runtime:'));
    expect(host).toContain('host-sdk/src/host/plugin-host.ts');
    expect(host).not.toContain('node_modules/semver');
    // validate-manifest.ts gives only its list of field names.
    expect(host).not.toMatch(/validate-contributes|field-reader|core\/permissions\.ts|core\/signing\//);
  });

  it('counts only what loads at start against the host budget: the bridge method groups and the inline plugin runtime load on demand', async () => {
    const { stdout } = await run(process.execPath, ['scripts/size.mjs', '--verbose'], { env: { ...process.env } });
    const host = stdout.slice(0, stdout.indexOf('guest runtime:'));
    // The table of bridge methods loads at start; the code of each group only on its first call.
    expect(host).toContain('host-sdk/src/bridge/bridge-methods.ts');
    expect(host).not.toMatch(/bridge\/methods\/(?!arguments)[a-z-]+-methods\.ts/);
    // The guest API that inline plugins share the launcher's window with, and the inline mount.
    expect(host).not.toMatch(/host\/inline-guest\.ts|src\/guest\/|frame\/inline-(mount|content|scripts)\.ts/);
    // The dependency rules and the semver range matcher: only when a plugin declares dependencies.
    expect(host).not.toMatch(/dependency-order\.ts|dependency-rules\.ts|semver-range\.ts|semver-rules\.ts/);
    // The frame document builder: with the guest runtime's source, when the first plugin shows.
    expect(host).not.toMatch(/frame\/(plugin-document|rewrite-urls|css-urls|srcset)\.ts/);
    // The event-stream reader: only when a plugin opens a stream (the network group).
    expect(host).not.toContain('event-stream/');
  });
});
