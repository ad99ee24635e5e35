/**
 * The plugins of the harness: every folder `plugins-dev/<id>/` with a valid `manifest.json`, read
 * again on every request, so a plugin added, fixed or removed shows without a restart. A folder
 * that cannot be listed is left out and its reason written to the log (once per reason, not on
 * every request).
 */
import type { Dirent } from 'node:fs';
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type PluginManifest, formatManifestProblems, isValidPluginId, parseManifest } from '@plughost/host-sdk/core';

/** The folder, below the harness root, that holds one folder per plugin. */
export const PLUGINS_DEV_FOLDER = 'plugins-dev';

/** A plugin of `plugins-dev/`. */
export interface DevPlugin {
  readonly id: string;
  /** The real path of its folder (a folder that is itself a link to a project is followed once). */
  readonly folder: string;
  readonly manifest: PluginManifest;
}

type Inspection = { readonly ok: true; readonly plugin: DevPlugin } | { readonly ok: false; readonly reason: string };

/** Reads `plugins-dev/` for the stub. */
export class PluginCatalog {
  readonly #folder: string;
  readonly #log: (line: string) => void;
  /** The last reason logged per folder name, so a broken folder is reported once until it changes. */
  readonly #reported = new Map<string, string>();

  constructor(root: string, log: (line: string) => void) {
    this.#folder = join(root, PLUGINS_DEV_FOLDER);
    this.#log = log;
  }

  /** Every listable plugin, sorted by id. */
  async list(): Promise<DevPlugin[]> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.#folder, { withFileTypes: true });
    } catch {
      return [];
    }
    const names = entries
      .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()))
      .map((entry) => entry.name)
      .sort();
    const plugins: DevPlugin[] = [];
    for (const name of names) {
      const plugin = await this.#inspectAndReport(name);
      if (plugin) plugins.push(plugin);
    }
    return plugins;
  }

  /** The plugin `id`, or `null` when `plugins-dev/<id>/` is missing or cannot be listed. */
  find(id: string): Promise<DevPlugin | null> {
    return this.#inspectAndReport(id);
  }

  async #inspectAndReport(name: string): Promise<DevPlugin | null> {
    const inspection = await this.#inspect(name);
    if (inspection.ok) {
      if (this.#reported.delete(name)) this.#log(`plugins-dev/${name}: listed again`);
      return inspection.plugin;
    }
    if (inspection.reason === '') {
      this.#reported.delete(name);
    } else if (this.#reported.get(name) !== inspection.reason) {
      this.#reported.set(name, inspection.reason);
      this.#log(`plugins-dev/${name} is left out: ${inspection.reason}`);
    }
    return null;
  }

  /** Why `plugins-dev/<name>/` is not a plugin (an empty reason: nothing there, nothing to report). */
  async #inspect(name: string): Promise<Inspection> {
    if (!isValidPluginId(name)) {
      return { ok: false, reason: 'its name is not a plugin id (reverse-domain, lower case, e.g. com.example.hello); name the folder after the manifest id' };
    }
    let folder: string;
    try {
      folder = await realpath(join(this.#folder, name));
      if (!(await stat(folder)).isDirectory()) return { ok: false, reason: '' };
    } catch {
      return { ok: false, reason: '' };
    }
    let bytes: Uint8Array;
    try {
      bytes = await readFile(join(folder, 'manifest.json'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { ok: false, reason: code === 'ENOENT' ? 'it has no manifest.json' : `its manifest.json cannot be read (${code})` };
    }
    const result = parseManifest(bytes);
    if (!result.ok) return { ok: false, reason: formatManifestProblems(result.problems) };
    if (result.manifest.id !== name) {
      return {
        ok: false,
        reason: `its manifest id is ${result.manifest.id}; the launcher serves a plugin's files from the folder named after its id, so rename the folder`,
      };
    }
    return { ok: true, plugin: { id: name, folder, manifest: result.manifest } };
  }
}
