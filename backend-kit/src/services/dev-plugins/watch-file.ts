import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { BackendLogger } from '../../http/logger.js';

/**
 * Calls `changed` whenever the file at `path` may have changed: created, written, renamed into
 * place or deleted. The folder is watched rather than the file, because the file may not exist yet
 * and an atomic rewrite replaces it (a watch on the old file would go quiet). Stops with the
 * returned function. When the platform cannot watch, the problem is logged and the caller still
 * reads the file on demand.
 */
export function watchFile(path: string, changed: () => void, logger: BackendLogger): () => void {
  const name = basename(path);
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, filename) => {
      // Some platforms do not say which file changed: then any change counts.
      if (filename === null || filename === name) changed();
    });
  } catch (error) {
    logger.warn(`Cannot watch ${path} (${(error as Error).message}); changes show at the next plugin listing instead`);
    return () => {};
  }
  watcher.on('error', (error) => logger.warn(`Stopped watching ${path} (${error.message}); changes show at the next plugin listing instead`));
  return () => watcher.close();
}
