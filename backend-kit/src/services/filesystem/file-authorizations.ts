import { dirname, join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import { readJsonFile, writeJsonAtomic } from '../atomic-file.js';
import { launcherDataForbidden, refuseSystemPlace } from './forbidden-places.js';
import { isPathWithin } from './path-within.js';
import { resolveRealPath } from './resolve-real-path.js';

/** The file the authorizations persist in, under the backend's own records (never `plugins/<id>/`). */
export const AUTHORIZATIONS_FILE = 'file-authorizations.json';

interface StoredAuthorizations {
  version: 1;
  /** Consent subject (see {@link consentSubjectOf}) → resolved directory prefixes the user agreed to. */
  plugins: Record<string, string[]>;
}

const DEV_SUBJECT_PREFIX = 'dev/';

/**
 * Whose consents a plugin's file access is checked against and recorded under: the plugin id for
 * an installed plugin, `dev/<id>` for a dev plugin of that id. So a dev build never inherits what
 * the user allowed the installed plugin, nor the other way round (as a dev plugin's settings live
 * in `dev/<id>/`), and a dev plugin's consents stay between dev sessions. No plugin id contains
 * `/`, so the two never meet.
 */
export function consentSubjectOf(pluginId: string, dev: boolean): string {
  return dev ? `${DEV_SUBJECT_PREFIX}${pluginId}` : pluginId;
}

/** The plugin a consent subject belongs to, and how to name it to the user. */
function describeSubject(subject: string): { pluginId: string; name: string } {
  if (!subject.startsWith(DEV_SUBJECT_PREFIX)) return { pluginId: subject, name: subject };
  const pluginId = subject.slice(DEV_SUBJECT_PREFIX.length);
  return { pluginId, name: `the dev plugin ${pluginId}` };
}

/**
 * The user's consent to a plugin reaching files, per plugin and directory prefix (specification
 * "Filesystem path authorization"). Every `pluginId` parameter is a consent subject
 * ({@link consentSubjectOf}): the id of an installed plugin, or `dev/<id>` for a dev plugin. Persisted in `backend/file-authorizations.json`, so a
 * plugin can neither read nor forge it through its own folder. Every path given here must
 * already be resolved ({@link resolveRealPath}); prefixes match at separator boundaries.
 *
 * Shared by the file routes and by downloads (`targetPath`), so one consent rule holds for both:
 * the backend creates one ({@link createFileAuthorizations}) and hands it to both.
 */
export class FileAuthorizations {
  private loaded: Promise<StoredAuthorizations> | undefined;
  private writes: Promise<unknown> = Promise.resolve();
  private protectedRoot: Promise<string> | undefined;

  /**
   * @param file - where the consent is stored.
   * @param launcherData - the launcher's data directory: no plugin reaches it through a file
   *   route, whatever the user agreed to, since it holds the backend's records, keys and every
   *   plugin's folder (decisions section 2).
   */
  constructor(
    private readonly file: string,
    private readonly launcherData: string,
  ) {}

  /** True when the user agreed to a prefix of `absolutePath` (resolved) for `pluginId`. */
  async isAuthorized(pluginId: string, absolutePath: string): Promise<boolean> {
    const stored = await this.load();
    return (stored.plugins[pluginId] ?? []).some((prefix) => isPathWithin(prefix, absolutePath));
  }

  /**
   * Records consent for `prefix` (a resolved absolute directory). Idempotent; prefixes already
   * covered by a broader one are not stored again. A prefix in a forbidden place (see
   * {@link FileAuthorizations.refuseForbidden}) is refused; a broader one (`/`) is recorded but
   * never covers those places.
   */
  async authorize(pluginId: string, prefix: string): Promise<void> {
    await this.refuseForbidden(prefix);
    const run = this.writes.then(async () => {
      const stored = await this.load();
      const current = stored.plugins[pluginId] ?? [];
      if (current.some((existing) => isPathWithin(existing, prefix))) return;
      // A broader prefix makes the narrower ones redundant.
      stored.plugins[pluginId] = [...current.filter((existing) => !isPathWithin(prefix, existing)), prefix].sort();
      await writeJsonAtomic(this.file, stored);
    });
    this.writes = run.catch(() => {});
    await run;
  }

  /**
   * Forgets every consent of `pluginId` (on uninstall), so a plugin installed later under the same
   * id starts without access.
   */
  async revokeAll(pluginId: string): Promise<void> {
    const run = this.writes.then(async () => {
      const stored = await this.load();
      if (!Object.hasOwn(stored.plugins, pluginId)) return;
      delete stored.plugins[pluginId];
      await writeJsonAtomic(this.file, stored);
    });
    this.writes = run.catch(() => {});
    await run;
  }

  /** The prefixes `pluginId` holds (resolved absolute directories). */
  async prefixesOf(pluginId: string): Promise<readonly string[]> {
    return [...((await this.load()).plugins[pluginId] ?? [])];
  }

  /**
   * Throws unless `pluginId` may touch `path` (resolved): 403 `FS_PATH_FORBIDDEN` in a forbidden
   * place, checked first so the launcher never asks the user about one; 403
   * `FS_AUTHORIZATION_REQUIRED` with details `{prefix}` when the user has not agreed yet.
   * `prefix` is the folder to ask about: the path's parent (a file's folder), or `askAbout` when
   * given (a directory the caller knows is meant).
   */
  async requireAuthorization(pluginId: string, path: string, askAbout: string = dirname(path)): Promise<void> {
    await this.refuseForbidden(path);
    if (await this.isAuthorized(pluginId, path)) return;
    const subject = describeSubject(pluginId);
    throw new PluginHostError('FS_AUTHORIZATION_REQUIRED', `The user has not allowed ${subject.name} to access ${askAbout}`, {
      prefix: askAbout,
      pluginId: subject.pluginId,
    });
  }

  /**
   * 403 `FS_PATH_FORBIDDEN` when `path` (resolved through links) lies where no plugin file
   * operation reaches: `/proc`, `/sys`, `/dev`, a pseudo file system, a Windows device path, or
   * the launcher's data directory.
   */
  async refuseForbidden(path: string): Promise<void> {
    await refuseSystemPlace(path);
    this.protectedRoot ??= resolveRealPath(this.launcherData);
    if (isPathWithin(await this.protectedRoot, path)) throw launcherDataForbidden(path);
  }

  private load(): Promise<StoredAuthorizations> {
    this.loaded ??= readJsonFile(this.file, null).then(normalize);
    return this.loaded;
  }
}

/** Keeps only well-formed entries of the stored file (a hand-edited file must not widen consent). */
function normalize(value: unknown): StoredAuthorizations {
  const plugins = Object.create(null) as Record<string, string[]>;
  const source = (value as { plugins?: unknown } | null)?.plugins;
  if (typeof source === 'object' && source !== null && !Array.isArray(source)) {
    for (const [id, prefixes] of Object.entries(source)) {
      if (Array.isArray(prefixes)) plugins[id] = prefixes.filter((prefix): prefix is string => typeof prefix === 'string' && prefix !== '');
    }
  }
  return { version: 1, plugins };
}

/**
 * The {@link FileAuthorizations} of a backend on its data directory: stored under `backend/`,
 * with the data directory itself out of every plugin's reach. Create one per backend; the file
 * routes, downloads, modpack installs and uninstall share it.
 */
export function createFileAuthorizations(paths: DataPaths): FileAuthorizations {
  return new FileAuthorizations(join(paths.backend, AUTHORIZATIONS_FILE), paths.root);
}
