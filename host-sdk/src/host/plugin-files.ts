import { ErrorCode, PluginHostError } from '../core/errors.js';
import { readInstalledManifest } from '../core/manifest/installed-manifest.js';
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
   * The plugin's manifest. The backend validated it in full at install, so only the shape the host
   * relies on is checked here (see `readInstalledManifest`), which keeps the validator out of
   * browser bundles.
   *
   * @throws PluginHostError `PLUGIN_LOAD_FAILED` when it cannot be read, `INVALID_MANIFEST` when it is malformed or names another plugin.
   */
  async manifest(id: string): Promise<PluginManifest> {
    const response = await this.backend.request(`/api/plugins/${encodeURIComponent(id)}/files/manifest.json`);
    if (!response.ok)
      throw new PluginHostError(
        ErrorCode.PLUGIN_LOAD_FAILED,
        `The manifest of ${id} could not be read (HTTP ${response.status}); check that the plugin is installed`,
        { status: response.status },
      );
    const result = readInstalledManifest(await response.text(), id);
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
