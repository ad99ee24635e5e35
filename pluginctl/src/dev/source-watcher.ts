import { type FSWatcher, watch } from 'node:fs';
import { join } from 'node:path';

/** The folder the dev loop watches with everything in it (specification, "Debug harness stub"). */
export const WATCHED_FOLDER = 'src';
/** The single files of the project root the dev loop watches. */
export const WATCHED_FILES: readonly string[] = ['index.html', 'theme.css', 'overlay.html', 'vite.config.ts'];

/** Options of {@link watchSources}. */
export interface SourceWatcherOptions {
  /** The project folder. */
  readonly dir: string;
  /** Called for every change, with the project path that changed (`src/App.tsx`, `index.html`, `src`). */
  readonly onChange: (path: string) => void;
  /** Called when watching fails for a reason other than a watched folder going away. */
  readonly onError?: (error: Error) => void;
}

/** A running watch; {@link SourceWatcher.close} stops it. */
export interface SourceWatcher {
  close(): void;
}

/**
 * Watches the sources of a plugin project: `src/` recursively and the files of
 * {@link WATCHED_FILES}, also when they appear only later (the project root is watched for their
 * names, and `src/` is watched again whenever it is created anew). Nothing else is watched, so
 * what the build writes (`dist/`) never reports a change and never starts another build.
 */
export function watchSources(options: SourceWatcherOptions): SourceWatcher {
  const { dir, onChange } = options;
  const onError = options.onError ?? (() => undefined);
  let closed = false;
  let folderWatcher: FSWatcher | undefined;

  const stopFolder = (): void => {
    folderWatcher?.close();
    folderWatcher = undefined;
  };
  // Called at start and whenever `src` is renamed in the root: it may have been created, replaced or removed.
  const watchFolder = (): void => {
    stopFolder();
    if (closed) return;
    try {
      const watcher = watch(join(dir, WATCHED_FOLDER), { recursive: true }, (_type, name) => {
        const path = typeof name === 'string' && name !== '' ? `${WATCHED_FOLDER}/${name.split('\\').join('/')}` : WATCHED_FOLDER;
        onChange(path);
      });
      // A removed src/ ends its watch; the root watcher sees it come back.
      watcher.on('error', () => {
        if (folderWatcher === watcher) stopFolder();
      });
      folderWatcher = watcher;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') onError(error as Error);
    }
  };

  const rootWatcher = watch(dir, (type, name) => {
    if (typeof name !== 'string') return;
    if (name === WATCHED_FOLDER) {
      // `rename` is the folder appearing or going; what happens inside it is the folder watch's.
      if (type !== 'rename') return;
      watchFolder();
      onChange(WATCHED_FOLDER);
    } else if (WATCHED_FILES.includes(name)) {
      onChange(name);
    }
  });
  rootWatcher.on('error', (error) => onError(error));
  watchFolder();

  return {
    close() {
      closed = true;
      stopFolder();
      rootWatcher.close();
    },
  };
}
