import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@plughost/backend-kit';
import { dataPaths, type DataPaths } from '../../../../backend-kit/src/config/data-paths.js';
import { openKeptStoreDownloads, type KeptStoreDownloads } from '../../../../backend-kit/src/services/store/kept-store-downloads.js';
import type { StorePackageFacts } from '../../../../backend-kit/src/services/store/store-package-facts.js';

const digest = (byte: string): string => byte.repeat(64);

function factsOf(sha256: string): StorePackageFacts {
  return {
    sha256,
    slug: 'hello',
    version: '1.0.0',
    listedId: 'com.example.hello',
    listedPermissions: ['ui:toast'],
    source: { url: 'http://127.0.0.1:1/api/v1', primary: true },
    downloadedFrom: '127.0.0.1:1',
    keptAt: 0,
  };
}

describe('kept store downloads (backend/store-downloads/)', () => {
  const opened: KeptStoreDownloads[] = [];
  const folders: string[] = [];
  let clock = 1_000_000;

  afterEach(async () => {
    for (const kept of opened.splice(0)) kept.close();
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  async function setUp(
    options: { keepMs?: number; maxBytes?: number } = {},
  ): Promise<{ paths: DataPaths; kept: KeptStoreDownloads; download(size: number): Promise<string> }> {
    const root = await mkdtemp(join(tmpdir(), 'kept-downloads-'));
    folders.push(root);
    const paths = dataPaths(root);
    await mkdir(paths.temporary, { recursive: true });
    const kept = await openKeptStoreDownloads({ paths, logger: silentLogger, now: () => clock, ...options });
    opened.push(kept);
    let count = 0;
    return {
      paths,
      kept,
      async download(size) {
        const file = join(paths.temporary, `download-${++count}`);
        await writeFile(file, new Uint8Array(size));
        return file;
      },
    };
  }

  it('hands a kept package out until it expires, and not after', async () => {
    const { kept, download } = await setUp({ keepMs: 60_000 });
    await kept.keep(await download(10), factsOf(digest('a')));
    const held = await kept.use(digest('a'));
    expect(held?.facts).toMatchObject({ slug: 'hello', keptAt: clock });
    held?.release();
    clock += 60_000;
    expect(await kept.use(digest('a'))).toBeNull();
  });

  it('drops the oldest packages first when they take more than the cap, never the one just kept', async () => {
    const { paths, kept, download } = await setUp({ maxBytes: 25 });
    await kept.keep(await download(10), factsOf(digest('a')));
    clock += 1;
    await kept.keep(await download(10), factsOf(digest('b')));
    clock += 1;
    await kept.keep(await download(10), factsOf(digest('c')));
    const names = await readdir(join(paths.backend, 'store-downloads'));
    expect(names.filter((name) => name.endsWith('.plugpkg')).sort()).toEqual([`${digest('b')}.plugpkg`, `${digest('c')}.plugpkg`]);
    clock += 1;
    await kept.keep(await download(40), factsOf(digest('d')));
    expect((await readdir(join(paths.backend, 'store-downloads'))).filter((name) => name.endsWith('.plugpkg'))).toEqual([`${digest('d')}.plugpkg`]);
  });

  it('never sweeps a package an install is reading', async () => {
    const { kept, download } = await setUp({ keepMs: 60_000 });
    await kept.keep(await download(10), factsOf(digest('a')));
    const held = await kept.use(digest('a'));
    clock += 120_000;
    await kept.keep(await download(10), factsOf(digest('b')));
    expect(held).not.toBeNull();
    held?.release();
    expect(await kept.use(digest('a'))).toBeNull();
  });

  it('starts empty, whatever an earlier run left, and ignores names that are not digests', async () => {
    const { paths } = await setUp();
    const folder = join(paths.backend, 'store-downloads');
    await writeFile(join(folder, `${digest('e')}.plugpkg`), 'left over');
    const again = await openKeptStoreDownloads({ paths, logger: silentLogger, now: () => clock });
    opened.push(again);
    expect(await readdir(folder)).toEqual([]);
    expect(await again.use('../../etc/passwd')).toBeNull();
  });
});
