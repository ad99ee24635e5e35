// The launcher's own file route rule, so the dev server accepts and refuses the same paths.
import { parsePluginFilePath } from '@plughost/backend-kit';
import { collectProjectFiles } from '../pack/collect-files.js';

/** The manifest, served at `/manifest.json` whatever `.plugignore` says: a package always holds it. */
export const MANIFEST_FILE = 'manifest.json';

/** What a request path names in the project. */
export type ServedFileLookup =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'missing'; readonly path: string };

/**
 * Finds the project file that a dev server request names (the caller opens it with backend-kit's
 * `openPluginFile`, which also refuses symbolic links swapped in since). `rawPath` is the request path after the
 * leading `/`, still percent-encoded. The answer follows the launcher's file route: a path that is
 * malformed or could escape the project (`..`, encoded separators, backslashes, ...) is `invalid`;
 * a file is served only when `pluginctl pack` would put it in the package (`.plugignore`,
 * `node_modules/`, `.git/`, `release/` and symbolic links stay out), so what the launcher loads
 * in development is what it will load from the package. Hidden files and folders (a segment
 * starting with `.`) are never served: a `.env` that `.plugignore` forgot stays private.
 */
export async function lookUpServedFile(projectDir: string, rawPath: string): Promise<ServedFileLookup> {
  let path: string;
  try {
    path = parsePluginFilePath(rawPath);
  } catch (error) {
    return { kind: 'invalid', message: (error as Error).message };
  }
  if (path.split('/').some((segment) => segment.startsWith('.'))) return { kind: 'missing', path };
  if (path === MANIFEST_FILE) return { kind: 'file', path };
  // Collected per request rather than cached: a build replaces its output folder wholesale, and
  // a dev server answers one launcher, so freshness matters more than the few milliseconds.
  const { files } = await collectProjectFiles(projectDir);
  return files.some((file) => file.path === path) ? { kind: 'file', path } : { kind: 'missing', path };
}
