import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackendLogger, LocalBackend } from '@plughost/backend-kit';
import { firstStartMarker } from './first-start-marker.js';

/** One entry of `sample-plugins/index.json`, written by the sample build. */
interface SampleEntry {
  readonly id: string;
  readonly version: string;
  readonly file: string;
}

const MARKER = 'demo-samples-installed.json';

/**
 * Installs the signed sample plugins once, on the first start of a data directory: each package
 * goes through the same signed upload path a user's package would (signature required), enabled.
 * A marker in the backend's records keeps a later start from reinstalling samples the user removed.
 */
export async function installSamplePlugins(
  backend: LocalBackend,
  options: { samplesDirectory: string; recordsDirectory: string; logger: BackendLogger },
): Promise<void> {
  const marker = join(options.recordsDirectory, MARKER);
  if (await firstStartMarker.isSet(marker)) return;
  let entries: SampleEntry[];
  try {
    entries = JSON.parse(await readFile(join(options.samplesDirectory, 'index.json'), 'utf8')) as SampleEntry[];
  } catch {
    options.logger.warn('No sample plugins found; run `npm run build` to build them', { folder: options.samplesDirectory });
    return;
  }
  const installed: string[] = [];
  for (const entry of entries) {
    try {
      await backend.plugins.installPackage(join(options.samplesDirectory, entry.file), { enable: true });
      installed.push(entry.id);
    } catch (error) {
      options.logger.warn('A sample plugin could not be installed', { pluginId: entry.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  await backend.plugins.reload();
  await firstStartMarker.set(marker, { installed });
  options.logger.info('Installed the sample plugins', { count: installed.length });
}
