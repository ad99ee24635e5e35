import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A source file of the project, read. */
export interface SourceFile {
  /** Project-relative, forward slashes. */
  readonly path: string;
  readonly text: string;
}

const SCRIPT = /\.(?:[cm]?[jt]sx?|html?|vue|svelte)$/i;
// Declarations describe the API (every template has typed `__PLUGIN_API__` ones) and tests use
// mocks: neither is code the plugin runs.
const NOT_RUN = /(?:\.d\.[cm]?ts|\.(?:test|spec)\.[cm]?[jt]sx?)$/i;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'release', 'coverage']);

/**
 * The plugin's own script and page files. With a build (`hasBuild`), `dist/` is its output and is
 * skipped so each call is reported once, at its source line; without one, `dist/` is the source.
 */
export async function readSourceFiles(root: string, options: { hasBuild: boolean }): Promise<SourceFile[]> {
  const found: SourceFile[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name) || (options.hasBuild && path === 'dist')) continue;
        await walk(join(folder, entry.name), path);
      } else if (entry.isFile() && SCRIPT.test(entry.name) && !NOT_RUN.test(entry.name) && !/\.config\.[cm]?[jt]s$/.test(entry.name)) {
        found.push({ path, text: await readFile(join(folder, entry.name), 'utf8') });
      }
    }
  };
  await walk(root, '');
  return found;
}
