import { openPluginFile } from '../plugin-data/open-plugin-file.js';
import { PluginFileCache } from '../plugin-data/plugin-file-cache.js';
import { isBackendWrittenFile } from '../plugin-data/plugin-file-path.js';

/** A page larger than this is left out of the plugin list: the launcher page fetches it as a file. */
export const MAX_LISTED_PAGE_BYTES = 64 * 1024;

/**
 * The pages the list gave, per version of the file (the plugin file route's own cache, with its
 * checks: a file enters only through `openPluginFile`, and is given again only while an `lstat`
 * still shows that version). One table for every backend of the process, as paths are absolute.
 */
const listedPages = new PluginFileCache({ maxFileBytes: MAX_LISTED_PAGE_BYTES, maxBytes: 8 * 1024 * 1024, maxFiles: 1024 });

// As a browser's `response.text()` decodes the file route's answer: UTF-8, BOM dropped, bad bytes replaced.
const utf8 = new TextDecoder();

/**
 * The text of a plugin's page (`entry.frontend`, a package path checked at install) in `folder`,
 * exactly what the plugin file route would serve; `undefined` when that route would not serve it
 * (missing, a link out of the folder, a file the backend writes) or when it is larger than
 * {@link MAX_LISTED_PAGE_BYTES}: the launcher page then asks the file route, which says why.
 */
export async function listedPage(folder: string, path: string): Promise<string | undefined> {
  if (isBackendWrittenFile(path)) return undefined;
  const kept = listedPages.fresh(folder, path);
  if (kept) return utf8.decode(kept.body);
  const file = await openPluginFile(folder, path);
  if (!file) return undefined;
  try {
    const read = await listedPages.remember(folder, path, file);
    return read ? utf8.decode(read.body) : undefined;
  } finally {
    await file.handle.close();
  }
}
