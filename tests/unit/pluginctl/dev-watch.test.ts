import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQuietPeriod, QUIET_PERIOD_MS } from '../../../pluginctl/src/dev/quiet-period.js';
import { type SourceWatcher, watchSources } from '../../../pluginctl/src/dev/source-watcher.js';
import { ManualClock, waitFor } from './dev-support.js';

describe('createQuietPeriod', () => {
  it('settles 400 ms after the last change, once for a burst', () => {
    const clock = new ManualClock();
    let settled = 0;
    const quiet = createQuietPeriod({ clock, onSettled: () => (settled += 1) });
    expect(QUIET_PERIOD_MS).toBe(400);

    quiet.touch();
    clock.advance(300);
    quiet.touch(); // the wait starts again
    clock.advance(300);
    quiet.touch();
    clock.advance(399);
    expect(settled).toBe(0);
    expect(quiet.waiting).toBe(true);
    clock.advance(1);
    expect(settled).toBe(1);
    expect(quiet.waiting).toBe(false);
    expect(clock.pending).toBe(0);

    // Nothing more without another change.
    clock.advance(10_000);
    expect(settled).toBe(1);
    quiet.touch();
    clock.advance(400);
    expect(settled).toBe(2);
  });

  it('cancel() drops a running wait', () => {
    const clock = new ManualClock();
    let settled = 0;
    const quiet = createQuietPeriod({ clock, quietMs: 50, onSettled: () => (settled += 1) });
    quiet.touch();
    quiet.cancel();
    clock.advance(1_000);
    expect(settled).toBe(0);
    expect(clock.pending).toBe(0);
  });
});

describe('watchSources', () => {
  let dir: string;
  let watcher: SourceWatcher | undefined;
  let changes: string[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pluginctl-dev-watch-'));
    changes = [];
  });
  afterEach(async () => {
    watcher?.close();
    watcher = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const start = (): void => {
    watcher = watchSources({ dir, onChange: (path) => changes.push(path), onError: (error) => changes.push(`error: ${error.message}`) });
  };
  const seen = (path: string): Promise<void> => waitFor(() => changes.includes(path), `a change of ${path} (seen: ${changes.join(', ')})`);

  it('reports changes anywhere under src/ and to the watched root files', async () => {
    await mkdir(join(dir, 'src', 'components'), { recursive: true });
    await writeFile(join(dir, 'index.html'), '<p>1</p>');
    start();
    await writeFile(join(dir, 'src', 'components', 'Button.tsx'), 'export {}');
    await seen('src/components/Button.tsx');
    await writeFile(join(dir, 'index.html'), '<p>2</p>');
    await seen('index.html');
    // A folder made later inside src/ is watched too.
    await mkdir(join(dir, 'src', 'pages', 'deep'), { recursive: true });
    await writeFile(join(dir, 'src', 'pages', 'deep', 'Page.tsx'), 'export {}');
    await seen('src/pages/deep/Page.tsx');
  });

  it('picks up watched files and src/ that appear after it started', async () => {
    start();
    for (const name of ['theme.css', 'overlay.html', 'vite.config.ts']) {
      await writeFile(join(dir, name), '/* new */');
      await seen(name);
    }
    await mkdir(join(dir, 'src'));
    await seen('src');
    // src/ is now watched: a file inside it is reported with its path.
    await waitFor(async () => {
      await writeFile(join(dir, 'src', 'main.ts'), `// ${Date.now()}`);
      return changes.includes('src/main.ts');
    }, 'a change in the new src/');
  });

  it('watches src/ again after it was deleted and made anew', async () => {
    await mkdir(join(dir, 'src'));
    start();
    await rm(join(dir, 'src'), { recursive: true });
    await seen('src');
    changes.length = 0;
    await mkdir(join(dir, 'src'));
    await seen('src');
    await waitFor(async () => {
      await writeFile(join(dir, 'src', 'again.ts'), `// ${Date.now()}`);
      return changes.includes('src/again.ts');
    }, 'a change in the recreated src/');
  });

  it('never reports the build output or other project files', async () => {
    await mkdir(join(dir, 'src'));
    await mkdir(join(dir, 'dist'));
    start();
    await writeFile(join(dir, 'dist', 'index.html'), '<p>built</p>');
    await mkdir(join(dir, 'dist', 'assets'));
    await writeFile(join(dir, 'dist', 'assets', 'index-abc.js'), 'built');
    await writeFile(join(dir, 'package.json'), '{}');
    await writeFile(join(dir, 'README.md'), '# readme');
    await writeFile(join(dir, 'index.htm'), 'not watched');
    // A watched change after them: once it is seen, anything reported for the writes above would be too.
    await writeFile(join(dir, 'theme.css'), ':root {}');
    await seen('theme.css');
    expect(changes.filter((path) => path !== 'theme.css')).toEqual([]);
  });
});
