// Type-checked (not run) in the temporary vendor app of tests/e2e/packaging.test.ts against the
// installed tarballs, with `skipLibCheck: false`: the Node side of a launcher as docs/backend.md
// and the registry's README mount it. (`.mts` keeps it out of the repository's own tsc projects.)
import Koa from 'koa';
import { createLocalBackend, hostCheck, resolveDataDirectory, type LocalBackend } from '@plughost/backend-kit';
import { createRegistry } from '@plughost/registry';
import { PluginHostError, isPluginHostError, validateManifest } from '@plughost/host-sdk/core';
import { generateSigningKey } from '@plughost/host-sdk/node';

const root = generateSigningKey({ format: 'pem' });
const backend: LocalBackend = await createLocalBackend({
  dataDirectory: resolveDataDirectory({ appName: 'Acme Launcher' }),
  rootPublicKey: root.publicKey,
  launcher: { name: 'Acme Launcher', version: '2.4.0-beta.1', gitCommit: process.env.GIT_COMMIT },
});
const registry = await createRegistry({
  dataDirectory: '/var/lib/acme-store',
  rootPrivateKey: root.privateKey,
  publicUrl: 'https://store.acme.example/api/v1',
});

const app = new Koa();
app.use(hostCheck({ configuredHost: '127.0.0.1' }));
app.use(backend.middleware);
app.use(registry.middleware);
const server = app.listen(17420, '127.0.0.1');

try {
  await backend.close();
} catch (error) {
  // One PluginHostError class for every package.
  if (error instanceof PluginHostError || isPluginHostError(error, 'INTERNAL_ERROR')) console.error(error.code, error.message);
} finally {
  server.close();
  await registry.close();
}
export const manifestProblems = validateManifest({ id: 'com.acme.demo' });
