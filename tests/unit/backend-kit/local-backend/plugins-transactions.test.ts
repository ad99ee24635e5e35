/**
 * The install, overwrite and rollback transactions under injected failures. A hook that throws
 * at a step is a failure there (disk error, bad signature discovered late): the transaction must
 * undo itself at once. A hook that never returns freezes the transaction exactly where a power cut
 * would stop it: the backend is then abandoned and a new one started on the same data folder,
 * which must recover.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setTransactionFaultHook, type TransactionStep } from '../../../../backend-kit/src/services/plugins/transaction-faults.js';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest, testKeys } from '../../../support/plugin-package.js';
import {
  backendWithScratch,
  developmentFolder,
  errorOf,
  jsonOf,
  packageFile,
  pluginText,
  pluginsFolder,
  postPackage,
  temporaryLeftovers,
  versionSpec,
} from './plugins-support.js';

const keys = testKeys();
const ID = 'com.example.hello';
const STEPS: readonly TransactionStep[] = [
  'staged',
  'data-copied',
  'journal-written',
  'snapshots-retired',
  'current-moved',
  'incoming-moved',
  'record-updated',
  'synced',
];

function failAt(backend: TestBackend, step: TransactionStep, operation: 'install' | 'rollback'): void {
  setTransactionFaultHook(backend.backend.plugins, (state) => {
    if (state.step === step && state.operation === operation) throw new Error(`injected failure at ${step}`);
  });
}

/** Freezes the transaction at `step` and resolves once it got there. */
function freezeAt(backend: TestBackend, step: TransactionStep, operation: 'install' | 'rollback'): Promise<void> {
  return new Promise((reached) => {
    setTransactionFaultHook(backend.backend.plugins, (state) => {
      if (state.step !== step || state.operation !== operation) return undefined;
      reached();
      return new Promise<void>(() => {});
    });
  });
}

async function journals(backend: TestBackend): Promise<string[]> {
  return readdir(join(backend.dataDirectory, 'backend', 'plugin-transactions')).catch(() => []);
}

/** The plugin's script as the plugin file route serves it. */
async function served(backend: TestBackend): Promise<string> {
  const response = await backend.api(`/api/plugins/${ID}/files/dist/main.js`, { token: null });
  expect(response.status).toBe(200);
  return response.text();
}

async function record(backend: TestBackend): Promise<unknown> {
  const file = JSON.parse(await readFile(join(backend.dataDirectory, 'backend', 'plugins.json'), 'utf8')) as {
    plugins: Record<string, unknown>;
  };
  return file.plugins[ID];
}

/** What a crash at `step` leaves on disk: the journal from its writing on, no plugin folder between the renames. */
async function expectCrashState(backend: TestBackend, step: TransactionStep): Promise<void> {
  const index = STEPS.indexOf(step);
  expect(await journals(backend)).toEqual(index >= STEPS.indexOf('journal-written') ? [`${ID}.json`] : []);
  if (step === 'current-moved') expect(await pluginsFolder(backend)).not.toContain(ID);
}

describe('plugin transactions under failures', () => {
  const fixture = backendWithScratch({ keys });

  const upload = async (version: string, status = 201): Promise<Response> => {
    const response = await postPackage(fixture.backend, await packageFile(fixture.scratch, versionSpec(version, keys)));
    expect(response.status).toBe(status);
    return response;
  };

  /** 0.9.0 then 1.0.0 (so a snapshot exists to be retired), enabled, with user data. */
  async function installPrevious(): Promise<unknown> {
    await upload('0.9.0');
    await upload('1.0.0');
    await jsonOf(await fixture.backend.api(`/api/plugins/${ID}/state`, { method: 'PUT', json: { enabled: true } }), 200);
    await writeFile(join(fixture.backend.dataDirectory, 'plugins', ID, 'settings.json'), '{"kept":true}');
    return record(fixture.backend);
  }

  /** The state {@link installPrevious} made, exactly. */
  async function expectPrevious(recordBefore: unknown): Promise<void> {
    expect(await pluginsFolder(fixture.backend)).toEqual([ID, `${ID}.bak-0.9.0`]);
    expect(await pluginText(fixture.backend, ID, 'dist/main.js')).toContain('1.0.0');
    expect(await served(fixture.backend)).toContain('1.0.0');
    expect(await pluginText(fixture.backend, ID, 'settings.json')).toBe('{"kept":true}');
    expect(await pluginText(fixture.backend, `${ID}.bak-0.9.0`, 'dist/main.js')).toContain('0.9.0');
    expect(await jsonOf(await fixture.backend.api('/api/plugins/'), 200)).toMatchObject([{ id: ID, version: '1.0.0', enabled: true, hasRollback: true }]);
    expect(await record(fixture.backend)).toEqual(recordBefore);
    expect(await journals(fixture.backend)).toEqual([]);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  }

  for (const step of STEPS) {
    it(`an overwrite failing after "${step}" leaves the previous version installed`, async () => {
      const before = await installPrevious();
      failAt(fixture.backend, step, 'install');
      expect((await errorOf(await upload('2.0.0', 500), 500)).code).toBe('INTERNAL_ERROR');
      setTransactionFaultHook(fixture.backend.backend.plugins, undefined);
      await expectPrevious(before);
      // Nothing is stuck: the same overwrite then succeeds.
      expect(await jsonOf(await upload('2.0.0'), 201)).toMatchObject({ version: '2.0.0', enabled: true, hasRollback: true });
      expect(await pluginsFolder(fixture.backend)).toEqual([ID, `${ID}.bak-1.0.0`]);
    });

    it(`an overwrite crashing after "${step}" is undone at the next start`, async () => {
      const before = await installPrevious();
      const frozen = freezeAt(fixture.backend, step, 'install');
      const request = upload('2.0.0').catch(() => undefined);
      await frozen;
      await expectCrashState(fixture.backend, step);
      await fixture.backend.close({ keepData: true });
      await request;
      fixture.backend = await startTestBackend({ dataDirectory: fixture.backend.dataDirectory, keys });
      await expectPrevious(before);
      expect(await jsonOf(await upload('2.0.0'), 201)).toMatchObject({ version: '2.0.0', hasRollback: true });
    });

    it(`a first install failing after "${step}" installs nothing`, async () => {
      failAt(fixture.backend, step, 'install');
      await errorOf(await upload('1.0.0', 500), 500);
      setTransactionFaultHook(fixture.backend.backend.plugins, undefined);
      expect(await pluginsFolder(fixture.backend)).toEqual([]);
      expect(await jsonOf(await fixture.backend.api('/api/plugins/'), 200)).toEqual([]);
      expect(await journals(fixture.backend)).toEqual([]);
      expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
      await upload('1.0.0');
    });

    it(`a rollback failing after "${step}" keeps the current version and the snapshot`, async () => {
      await upload('1.0.0');
      await upload('2.0.0');
      failAt(fixture.backend, step, 'rollback');
      await errorOf(await fixture.backend.api(`/api/plugins/${ID}/rollback`, { method: 'POST' }), 500);
      setTransactionFaultHook(fixture.backend.backend.plugins, undefined);
      expect(await pluginsFolder(fixture.backend)).toEqual([ID, `${ID}.bak-1.0.0`]);
      expect(await pluginText(fixture.backend, ID, 'dist/main.js')).toContain('2.0.0');
      expect(await served(fixture.backend)).toContain('2.0.0');
      expect(await jsonOf(await fixture.backend.api('/api/plugins/'), 200)).toMatchObject([{ version: '2.0.0', hasRollback: true }]);
      expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
      expect(await jsonOf(await fixture.backend.api(`/api/plugins/${ID}/rollback`, { method: 'POST' }), 200)).toMatchObject({ version: '1.0.0' });
    });

    it(`a rollback crashing after "${step}" is undone at the next start`, async () => {
      await upload('1.0.0');
      await upload('2.0.0');
      const before = await record(fixture.backend);
      const frozen = freezeAt(fixture.backend, step, 'rollback');
      const request = fixture.backend.api(`/api/plugins/${ID}/rollback`, { method: 'POST' }).catch(() => undefined);
      await frozen;
      await expectCrashState(fixture.backend, step);
      await fixture.backend.close({ keepData: true });
      await request;
      fixture.backend = await startTestBackend({ dataDirectory: fixture.backend.dataDirectory, keys });
      expect(await pluginsFolder(fixture.backend)).toEqual([ID, `${ID}.bak-1.0.0`]);
      expect(await served(fixture.backend)).toContain('2.0.0');
      expect(await record(fixture.backend)).toEqual(before);
      expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
    });
  }

  it('a transaction another process left unfinished is undone before the next change of that plugin', async () => {
    await upload('1.0.0');
    // A second backend on the same data folder stands for a process whose undo failed.
    const other = await startTestBackend({ dataDirectory: fixture.backend.dataDirectory, keys });
    const frozen = freezeAt(other, 'current-moved', 'install');
    const request = postPackage(other, await packageFile(fixture.scratch, versionSpec('2.0.0', keys))).catch(() => undefined);
    await frozen;
    expect(await pluginsFolder(fixture.backend)).toEqual([`${ID}.bak-1.0.0`]);
    expect(await jsonOf(await upload('3.0.0'), 201)).toMatchObject({ version: '3.0.0', hasRollback: true });
    expect(await pluginsFolder(fixture.backend)).toEqual([ID, `${ID}.bak-1.0.0`]);
    expect(await journals(fixture.backend)).toEqual([]);
    await other.close({ keepData: true });
    await request;
  });

  it('a development overwrite failing midway leaves the previous version', async () => {
    const install = (sourceDir: string): Promise<Response> => fixture.backend.api('/api/plugins/install', { json: { sourceDir } });
    const files = (marker: string): Record<string, string> => ({ 'dist/index.html': '<!doctype html>', 'dist/main.js': marker });
    await jsonOf(await install(await developmentFolder(join(fixture.scratch, 'v1'), sampleManifest({ version: '1.0.0' }), files('dev one'))), 201);
    failAt(fixture.backend, 'incoming-moved', 'install');
    const v2 = await developmentFolder(join(fixture.scratch, 'v2'), sampleManifest({ version: '2.0.0' }), files('dev two'));
    expect((await errorOf(await install(v2), 500)).code).toBe('INTERNAL_ERROR');
    setTransactionFaultHook(fixture.backend.backend.plugins, undefined);
    expect(await pluginsFolder(fixture.backend)).toEqual([ID]);
    expect(await pluginText(fixture.backend, ID, 'dist/main.js')).toBe('dev one');
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });
});
