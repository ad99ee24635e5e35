import { randomBytes } from 'node:crypto';
import { PluginHostError } from '@plughost/host-sdk/core';
import { readJsonFile, writeJsonAtomic } from '../atomic-file.js';

/** A game instance of the launcher: a game directory with its own mods, packs and saves. */
export interface LauncherInstance {
  readonly id: string;
  /** The name the user sees. */
  readonly name: string;
  /** The instance's root directory (absolute, resolved). */
  readonly gameDir: string;
  /** Memory for the game in MiB. */
  readonly maxMemory: number;
  /** Whether the instance keeps its own game version files instead of sharing them. */
  readonly versionIsolation: boolean;
  readonly gameVersion?: string;
  readonly loader?: string;
  readonly loaderVersion?: string;
  /** The modpack it was installed from. */
  readonly modpack?: { readonly name: string; readonly version?: string };
  /** The plugin that created it, or absent for the launcher. */
  readonly createdBy?: string;
  readonly createdAt: string;
}

/** What creating an instance takes. */
export type NewInstance = Omit<LauncherInstance, 'id' | 'createdAt'>;

/** Changes to an instance (the game and loader a pack turned out to need). */
export type InstanceUpdate = Partial<Pick<LauncherInstance, 'gameVersion' | 'loader' | 'loaderVersion' | 'modpack'>>;

/**
 * Where the launcher keeps its instances. The default keeps them in a JSON file; a launcher with
 * its own instance management passes an implementation backed by it (`instances` option).
 */
export interface InstanceStore {
  list(): Promise<readonly LauncherInstance[]>;
  get(id: string): Promise<LauncherInstance | null>;
  create(instance: NewInstance): Promise<LauncherInstance>;
  update(id: string, changes: InstanceUpdate): Promise<LauncherInstance>;
}

interface StoredInstances<Extra extends object = Record<never, never>> {
  version: 1;
  instances: (LauncherInstance & Partial<Extra>)[];
}

/**
 * The id of a new instance, readable and unique (`my-pack-3f9a1c`): its name decomposed (NFKD) and
 * lower-cased, every run of other characters than `a-z` and `0-9` made one dash, at most 40
 * characters (`instance` when nothing is left), then six random hex digits. Exported for servers
 * that must make ids as this backend does (pluginctl's harness stub).
 */
export function instanceIdFor(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${slug || 'instance'}-${randomBytes(3).toString('hex')}`;
}

function isStoredInstance(value: unknown): value is LauncherInstance {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.id === 'string' &&
    typeof record.name === 'string' &&
    typeof record.gameDir === 'string' &&
    typeof record.maxMemory === 'number' &&
    typeof record.versionIsolation === 'boolean' &&
    typeof record.createdAt === 'string'
  );
}

/**
 * The default {@link InstanceStore}: `backend/instances.json`, written atomically, one write at a
 * time. A launcher that keeps more about its instances (an icon, when it was last played) names
 * those fields as `Extra`: they are stored in the same records, may be given on `create` and
 * `update`, and are listed by `GET /api/instance` with the rest. Records on disk are not checked
 * beyond the base fields, so validate `Extra` fields where you read them.
 *
 * @example
 * ```ts
 * const instances = new JsonInstanceStore<{ icon: string }>(join(dataDirectory, 'backend', 'instances.json'));
 * const backend = await createLocalBackend({ ..., instances });
 * ```
 */
export class JsonInstanceStore<Extra extends object = Record<never, never>> implements InstanceStore {
  private loaded: Promise<StoredInstances<Extra>> | undefined;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: string) {}

  async list(): Promise<readonly (LauncherInstance & Partial<Extra>)[]> {
    return [...(await this.load()).instances];
  }

  async get(id: string): Promise<(LauncherInstance & Partial<Extra>) | null> {
    return (await this.load()).instances.find((instance) => instance.id === id) ?? null;
  }

  create(instance: NewInstance & Partial<Extra>): Promise<LauncherInstance & Partial<Extra>> {
    return this.change((stored) => {
      const created: LauncherInstance & Partial<Extra> = { ...instance, id: instanceIdFor(instance.name), createdAt: new Date().toISOString() };
      stored.instances.push(created);
      return created;
    });
  }

  update(id: string, changes: InstanceUpdate & Partial<Extra>): Promise<LauncherInstance & Partial<Extra>> {
    return this.change((stored) => {
      const index = stored.instances.findIndex((instance) => instance.id === id);
      const current = stored.instances[index];
      if (!current) throw new PluginHostError('INSTANCE_NOT_FOUND', `No instance ${id}`);
      const updated = { ...current, ...changes };
      stored.instances[index] = updated;
      return updated;
    });
  }

  private change<T>(apply: (stored: StoredInstances<Extra>) => T): Promise<T> {
    const run = this.writes.then(async () => {
      const stored = await this.load();
      const result = apply(stored);
      await writeJsonAtomic(this.file, stored);
      return result;
    });
    this.writes = run.catch(() => {});
    return run;
  }

  private load(): Promise<StoredInstances<Extra>> {
    this.loaded ??= readJsonFile(this.file, null).then((value) => {
      const instances = (value as { instances?: unknown } | null)?.instances;
      // Only the base fields are checked: every `Extra` field is optional, and its reader checks it.
      const records = (Array.isArray(instances) ? instances.filter(isStoredInstance) : []) as (LauncherInstance & Partial<Extra>)[];
      return { version: 1 as const, instances: records };
    });
    return this.loaded;
  }
}
