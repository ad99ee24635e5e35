import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { dataPaths, type BackendLogger } from '@plughost/backend-kit';
import { firstStartMarker } from '../first-start-marker.js';
import type { InstanceIcon, LibraryStore } from './library-instance.js';

/** One demo instance of a fresh data directory. */
interface DemoInstance {
  readonly name: string;
  readonly folder: string;
  readonly icon: InstanceIcon;
  readonly gameVersion: string;
  readonly loader?: { readonly name: string; readonly version: string };
  readonly maxMemory: number;
  /** How long ago it was last played, in hours; absent: never played. */
  readonly playedHoursAgo?: number;
}

const DEMO_INSTANCES: readonly DemoInstance[] = [
  {
    name: 'Survival 1.20',
    folder: 'survival-1-20',
    icon: 'grass',
    gameVersion: '1.20.4',
    loader: { name: 'fabric', version: '0.15.7' },
    maxMemory: 4096,
    playedHoursAgo: 26,
  },
  { name: 'Creative Sandbox', folder: 'creative-sandbox', icon: 'pickaxe', gameVersion: '1.21.1', maxMemory: 3072, playedHoursAgo: 24 * 6 },
  {
    name: 'Modded Adventure',
    folder: 'modded-adventure',
    icon: 'sword',
    gameVersion: '1.20.1',
    loader: { name: 'forge', version: '47.2.0' },
    maxMemory: 6144,
    playedHoursAgo: 24 * 19,
  },
  {
    name: 'Skyblock Classic',
    folder: 'skyblock-classic',
    icon: 'island',
    gameVersion: '1.19.2',
    loader: { name: 'fabric', version: '0.14.21' },
    maxMemory: 4096,
  },
];

/** The folders a game directory starts with (the download categories the demo installs into). */
const GAME_FOLDERS = ['mods', 'resourcepacks', 'shaderpacks', 'datapacks', 'saves'];
const MARKER = 'demo-library-seeded.json';

/**
 * Creates the demo's instances once, on the first start of a data directory, each with its game
 * directory under `instances/` (the launcher's own folder, where downloads need no consent). A
 * marker in the backend's records keeps a later start from adding them again.
 */
export async function seedLibrary(store: LibraryStore, options: { dataDirectory: string; logger: BackendLogger; now?: () => number }): Promise<void> {
  const paths = dataPaths(options.dataDirectory);
  const marker = join(paths.backend, MARKER);
  if (await firstStartMarker.isSet(marker)) return;
  const now = options.now?.() ?? Date.now();
  const created: string[] = [];
  for (const demo of DEMO_INSTANCES) {
    const gameDir = join(paths.instances, demo.folder);
    for (const folder of GAME_FOLDERS) await mkdir(join(gameDir, folder), { recursive: true });
    const instance = await store.create({
      name: demo.name,
      gameDir,
      maxMemory: demo.maxMemory,
      versionIsolation: false,
      gameVersion: demo.gameVersion,
      ...(demo.loader ? { loader: demo.loader.name, loaderVersion: demo.loader.version } : {}),
      icon: demo.icon,
      ...(demo.playedHoursAgo !== undefined ? { lastPlayedAt: new Date(now - demo.playedHoursAgo * 3_600_000).toISOString() } : {}),
    });
    created.push(instance.id);
  }
  await firstStartMarker.set(marker, { created }, new Date(now));
  options.logger.info('Created the demo instances', { count: created.length });
}
