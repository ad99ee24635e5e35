import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestBackend } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';

/** Writes an installed plugin's manifest straight into the data folder. */
export async function installOnDisk(dataDirectory: string, id: string): Promise<void> {
  const folder = join(dataDirectory, 'plugins', id);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id, permissions: ['filesystem:read', 'filesystem:write'] })));
}

/** Calls one of the file routes and returns status and parsed body. */
export async function fileCall(
  server: TestBackend,
  id: string,
  action: 'read' | 'write' | 'delete' | 'authorize',
  json: unknown,
  headers?: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.api(`/api/plugins/files/${id}/${action}`, { json, ...(headers ? { headers } : {}) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
