import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEV_PLUGINS_FILE_NAME, formatDevPluginsFile, parseDevPluginsFile } from '@plughost/host-sdk/core';

/** The entries of a data directory's `.dev-plugins.json` (none when the file is missing). */
async function readEntries(file: string): Promise<{ plugins: Map<string, string>; problems: readonly string[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { plugins: new Map(), problems: [] };
    throw error;
  }
  const parsed = parseDevPluginsFile(text);
  return { plugins: new Map(parsed.plugins), problems: parsed.problems };
}

/** Writes through a temporary file and a rename, so a launcher reading at the same time sees the old or the new file, never half of one. */
async function writeEntries(file: string, plugins: ReadonlyMap<string, string>): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, formatDevPluginsFile(plugins));
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * Adds (or replaces) the entry `id → url` in `<dataDirectory>/.dev-plugins.json`, keeping the
 * other plugins' entries; creates the directory and the file when missing. Resolves to the file's
 * path and the problems of entries that could not be read (they are dropped from the file).
 */
export async function addDevPluginEntry(dataDirectory: string, id: string, url: string): Promise<{ file: string; problems: readonly string[] }> {
  await mkdir(dataDirectory, { recursive: true });
  const file = join(dataDirectory, DEV_PLUGINS_FILE_NAME);
  const { plugins, problems } = await readEntries(file);
  plugins.set(id, url);
  await writeEntries(file, plugins);
  return { file, problems };
}

/**
 * Removes the entry of `id` from `<dataDirectory>/.dev-plugins.json` when it still names `url`
 * (another dev server started later for the same plugin keeps its own entry), and deletes the file
 * when no entry is left.
 */
export async function removeDevPluginEntry(dataDirectory: string, id: string, url: string): Promise<void> {
  const file = join(dataDirectory, DEV_PLUGINS_FILE_NAME);
  const { plugins } = await readEntries(file);
  if (plugins.get(id) !== url) return;
  plugins.delete(id);
  if (plugins.size === 0) await rm(file, { force: true });
  else await writeEntries(file, plugins);
}
