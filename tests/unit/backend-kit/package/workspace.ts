/**
 * A private temporary folder per test: the archive goes in `root`, extraction in `work`, and a
 * refusal must leave `work` exactly as empty as it started.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { isPluginHostError, type ErrorCode, type PluginHostError } from '@plughost/host-sdk/core';
import { extractPackage, type PackageLimits } from '@plughost/backend-kit';

export interface Workspace {
  root: string;
  work: string;
  /** Writes `bytes` as an archive file and returns its path. */
  archive(bytes: Uint8Array, name?: string): Promise<string>;
  remove(): Promise<void>;
}

export async function createWorkspace(): Promise<Workspace> {
  const root = await mkdtemp(join(tmpdir(), 'plughost-package-test-'));
  const work = join(root, 'work');
  await mkdir(work);
  return {
    root,
    work,
    async archive(bytes, name = 'package.plugpkg') {
      const path = join(root, name);
      await writeFile(path, bytes);
      return path;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected extractPackage to refuse the archive, but it succeeded');
}

export interface RefusalOptions {
  limits?: Partial<PackageLimits>;
  /** The message must match. */
  message?: RegExp | string;
  /**
   * `true` (default): the refusal happens before anything is written. Proven by extracting a
   * second time into a folder that does not exist: any attempt to write would fail differently.
   * `false`: the refusal happens during extraction; only the clean-up is checked.
   */
  beforeWriting?: boolean;
}

/** Extracts `bytes` and asserts the refusal code, the message, and an empty work folder. */
export async function expectRefusal(workspace: Workspace, bytes: Uint8Array, code: ErrorCode, options: RefusalOptions = {}): Promise<PluginHostError> {
  const path = await workspace.archive(bytes);
  const error = await refusal(extractPackage(path, { workDirectory: workspace.work, limits: options.limits }));
  if (!isPluginHostError(error, code)) {
    throw new Error(`expected ${code}, got ${String((error as Error)?.stack ?? error)}`);
  }
  if (options.message !== undefined) expect(error.message).toMatch(options.message);
  expect(await readdir(workspace.work)).toEqual([]);
  if (options.beforeWriting ?? true) {
    const missing = join(workspace.root, 'does-not-exist');
    const again = await refusal(extractPackage(path, { workDirectory: missing, limits: options.limits }));
    expect(isPluginHostError(again, code), `second refusal: ${String(again)}`).toBe(true);
  }
  return error;
}
