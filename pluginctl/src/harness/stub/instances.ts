/**
 * The launcher's instances (`GET /api/instance`, `GET /api/instance/<id>`) in memory: one sample
 * instance, plus each instance a modpack install creates. The records are the backend's
 * `LauncherInstance` and new ids follow the backend's rule, so a plugin sees the same shapes here
 * as against a launcher; unlike the backend's `JsonInstanceStore`, nothing is written to disk.
 */
import { join } from 'node:path';
import { type LauncherInstance, type NewInstance, instanceIdFor } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import { FAKE_DATA_DIRECTORY } from './fake-data.js';

/** What creating an instance takes; `id` chosen by the caller (a mocked `instanceId`) or made from the name. */
export type NewStubInstance = NewInstance & { readonly id?: string };

const SAMPLE_INSTANCE: LauncherInstance = {
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

/** Instances in memory. */
export class StubInstances {
  readonly #instances = new Map<string, LauncherInstance>([[SAMPLE_INSTANCE.id, SAMPLE_INSTANCE]]);

  list(): LauncherInstance[] {
    return [...this.#instances.values()];
  }

  /** @throws PluginHostError `INSTANCE_NOT_FOUND`. */
  get(id: string): LauncherInstance {
    const instance = this.#instances.get(id);
    if (!instance) throw new PluginHostError('INSTANCE_NOT_FOUND', `No instance ${id}`);
    return instance;
  }

  create({ id, ...fields }: NewStubInstance): LauncherInstance {
    const instance: LauncherInstance = { ...fields, id: id ?? instanceIdFor(fields.name), createdAt: new Date().toISOString() };
    this.#instances.set(instance.id, instance);
    return instance;
  }
}
