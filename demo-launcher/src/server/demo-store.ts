import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Koa from 'koa';
import { openPluginPackage, type BackendLogger } from '@plughost/backend-kit';
import { createRegistry, type Registry } from '@plughost/registry';

/** The demo store: a registry in the launcher's process, stocked with the sample plugins. */
export interface DemoStore {
  /** The store's API root, `http://host:port/api/v1`. */
  readonly url: string;
  readonly registry: Registry;
  close(): Promise<void>;
}

interface SampleEntry {
  readonly id: string;
  readonly file: string;
}

/** The account the demo store files its sample plugins under. */
const DEMO_PUBLISHER = 'plughost-samples';

/**
 * Puts each signed sample package into an empty store as a published version, as an operator
 * seeding a store would: the package is verified against the store's root first, so what the
 * store offers is exactly what `npm run build` signed.
 */
async function stockSamples(registry: Registry, samplesDirectory: string, rootPublicKey: string, logger: BackendLogger): Promise<void> {
  if ((await registry.catalog.countPublished()) > 0) return;
  let entries: SampleEntry[];
  try {
    entries = JSON.parse(await readFile(join(samplesDirectory, 'index.json'), 'utf8')) as SampleEntry[];
  } catch {
    logger.warn('The demo store has no sample plugins to offer; run `npm run build`', { folder: samplesDirectory });
    return;
  }
  const now = new Date().toISOString();
  for (const entry of entries) {
    const path = join(samplesDirectory, entry.file);
    const opened = await openPluginPackage(path, {
      workDirectory: registry.context.options.dataDirectory,
      signaturePolicy: 'required',
      trust: { rootPublicKey },
    });
    try {
      const { manifest } = opened;
      const stored = await registry.context.blobs.put(new Uint8Array(await readFile(path)));
      const slug = manifest.id.split('.').pop() ?? manifest.id;
      await registry.catalog.createPlugin({
        id: manifest.id,
        slug,
        ownerAccountId: DEMO_PUBLISHER,
        name: manifest.name,
        description: manifest.description ?? '',
        tags: ['sample'],
        createdAt: now,
      });
      await registry.catalog.addVersion({
        pluginId: manifest.id,
        version: manifest.version,
        sha256: stored.sha256,
        sizeBytes: stored.size,
        changelog: 'First release of the sample.',
        minLauncherVersion: manifest.minLauncherVersion,
        permissions: manifest.permissions,
        layers: manifest.layers,
        status: 'published',
        signerKeyId: opened.signature.status === 'valid' ? opened.signature.signer.keyId : null,
        createdAt: now,
      });
    } finally {
      await opened.dispose();
    }
  }
  logger.info('Stocked the demo store with the sample plugins', { count: entries.length });
}

/** Starts the demo store on `host:port` (0: any free port) with its data under `dataDirectory`. */
export async function startDemoStore(options: {
  dataDirectory: string;
  host: string;
  port: number;
  rootPrivateKey: string;
  rootPublicKey: string;
  samplesDirectory: string;
  logger: BackendLogger;
}): Promise<DemoStore> {
  const registry = await createRegistry({ dataDirectory: options.dataDirectory, rootPrivateKey: options.rootPrivateKey, logger: options.logger });
  try {
    await stockSamples(registry, options.samplesDirectory, options.rootPublicKey, options.logger);
  } catch (error) {
    // An empty store still works; the launcher must start either way.
    options.logger.warn('The demo store could not be stocked with the samples', { error: error instanceof Error ? error.message : String(error) });
  }
  const app = new Koa();
  app.use(registry.middleware);
  const server: Server = app.listen(options.port, options.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${shownHost}:${(server.address() as AddressInfo).port}/api/v1`;
  return {
    url,
    registry,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await registry.close();
    },
  };
}
