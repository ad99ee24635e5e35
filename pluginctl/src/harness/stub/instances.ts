/**
 * The launcher's instances (`GET /api/instance`, `GET /api/instance/<id>`) in memory: one sample
 * instance, plus each instance a modpack install creates, with the backend's `LauncherInstance`
 * fields.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import { FAKE_DATA_DIRECTORY } from './fake-data.js';

/** A game instance, as the backend lists it. */
export interface StubInstance {
  readonly id: string;
  readonly name: string;
  readonly gameDir: string;
  /** MiB. */
  readonly maxMemory: number;
  readonly versionIsolation: boolean;
  readonly gameVersion?: string;
  readonly loader?: string;
  readonly loaderVersion?: string;
  readonly modpack?: { readonly name: string; readonly version?: string };
  /** The plugin that created it; absent for the launcher. */
  readonly createdBy?: string;
  readonly createdAt: string;
}

/** What creating an instance takes; `id` chosen by the caller (a mocked `instanceId`) or made from the name. */
export type NewStubInstance = Omit<StubInstance, 'id' | 'createdAt'> & { readonly id?: string };

const SAMPLE_INSTANCE: StubInstance = {
  id: 'harness-sample',
  name: 'Harness sample',
  gameDir: join(FAKE_DATA_DIRECTORY, 'instances', 'harness-sample'),
  maxMemory: 4096,
  versionIsolation: false,
  gameVersion: '1.20.4',
  loader: 'fabric',
  loaderVersion: '0.15.7',
  createdAt: '2025-01-01T00:00:00.000Z',
};

/** The backend's id rule: the name made lower-case and dashed, and six random hex digits. */
function instanceIdOf(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || 'instance'}-${randomBytes(3).toString('hex')}`;
}

/** Instances in memory. */
export class StubInstances {
  readonly #instances = new Map<string, StubInstance>([[SAMPLE_INSTANCE.id, SAMPLE_INSTANCE]]);

  list(): StubInstance[] {
    return [...this.#instances.values()];
  }

  /** @throws PluginHostError `INSTANCE_NOT_FOUND`. */
  get(id: string): StubInstance {
    const instance = this.#instances.get(id);
    if (!instance) throw new PluginHostError('INSTANCE_NOT_FOUND', `No instance ${id}`);
    return instance;
  }

  create(fields: NewStubInstance): StubInstance {
    const instance: StubInstance = { ...fields, id: fields.id ?? instanceIdOf(fields.name), createdAt: new Date().toISOString() };
    this.#instances.set(instance.id, instance);
    return instance;
  }
}
