import { ErrorCode, PluginHostError } from '../core/errors.js';
import { checkInstalledManifest, readInstalledManifest } from '../core/manifest/installed-manifest.js';
import type { PluginManifest } from '../core/manifest/manifest-types.js';
import type { BackendClient } from './backend-client.js';

/** A plugin's package files as the backend serves them (`/api/plugins/<id>/files/...`). */
export class PluginFiles {
  constructor(private readonly backend: BackendClient) {}

  /** The absolute URL of a plugin's files folder: the base its pages resolve relative URLs against. */
  base(id: string): string {
    return this.backend.url(`/api/plugins/${encodeURIComponent(id)}/files`);
  }

  /**
   * The plugin's manifest: `listed` when the plugin list carried it (`?include=manifest`), else
   * read from the plugin's files. The backend validated it in full at install, so only the shape
   * the host relies on is checked here, in both cases (see `readInstalledManifest`), which keeps the
   * validator out of browser bundles.
   *
   * @throws PluginHostError `PLUGIN_LOAD_FAILED` when it cannot be read, `INVALID_MANIFEST` when it is malformed or names another plugin.
   */
  async manifest(id: string, listed?: unknown): Promise<PluginManifest> {
    const result = listed === undefined ? readInstalledManifest(await this.text(id, 'manifest.json'), id) : checkInstalledManifest(listed, id);
    if (!result.ok) throw new PluginHostError(ErrorCode.INVALID_MANIFEST, `The manifest of ${id} is invalid: ${result.problem}`);
    return result.manifest;
  }

  /**
   * A text file of the plugin's package (a page, a theme).
   *
   * @throws PluginHostError `PLUGIN_LOAD_FAILED` naming the path when the backend does not serve it.
   */
  async text(id: string, path: string): Promise<string> {
    const response = await this.backend.request(`/api/plugins/${encodeURIComponent(id)}/files/${path.split('/').map(encodeURIComponent).join('/')}`);
    if (!response.ok)
      throw new PluginHostError(
        ErrorCode.PLUGIN_LOAD_FAILED,
        `${path} of ${id} could not be loaded (HTTP ${response.status}); check that the package contains it`,
        { path, status: response.status },
      );
    return response.text();
  }
}
