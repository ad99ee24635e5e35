import { BackendClient, type PluginInfo, type PluginManifest } from '@plughost/host-sdk';
import { parseManifest } from '@plughost/host-sdk/core';
import type { LauncherBackendSource, ManagedPlugin, PackageInspection } from '@plughost/web-components';

/**
 * The launcher page's calls to its local backend (the bearer token stays here). Every failed call
 * is logged once, `[API] <method> <path> failed: <status> <code>`, by the host SDK's client: this
 * class's own calls and, through {@link LauncherBackend.source}, the web components' calls.
 */
export class LauncherBackend {
  readonly client: BackendClient;
  /** The backend for the web components: their requests go through the client's logging fetch. */
  readonly source: LauncherBackendSource;

  /** `baseUrl`: the backend's address, which may be another origin than the page's (boot `backendUrl`). */
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {
    this.client = new BackendClient({ baseUrl, token });
    this.source = { url: baseUrl, token, fetch: this.client.fetch };
  }

  filesBase(pluginId: string): string {
    return this.client.url(`/api/plugins/${encodeURIComponent(pluginId)}/files`);
  }

  /** Installed plugins with their manifests (a manifest that cannot be read is left out of the plugin's entry). */
  async plugins(): Promise<ManagedPlugin[]> {
    const listed = await this.client.json<ManagedPlugin[]>('/api/plugins/');
    return Promise.all(
      listed.map(async (plugin) => {
        const manifest = await this.manifest(plugin.id).catch(() => undefined);
        return manifest ? { ...plugin, manifest } : plugin;
      }),
    );
  }

  async manifest(pluginId: string): Promise<PluginManifest> {
    const response = await this.client.request(`/api/plugins/${encodeURIComponent(pluginId)}/files/manifest.json`);
    if (!response.ok) throw new Error(`manifest of ${pluginId}: ${response.status}`);
    const parsed = parseManifest(new Uint8Array(await response.arrayBuffer()));
    if (!parsed.ok) throw new Error(`manifest of ${pluginId} is invalid`);
    return parsed.manifest;
  }

  inspect(file: File): Promise<PackageInspection> {
    return this.client.json<PackageInspection>('/api/plugins/inspect', { body: packageForm(file) });
  }

  install(file: File): Promise<PluginInfo> {
    return this.client.json<PluginInfo>('/api/plugins/upload?enable=true', { body: packageForm(file) });
  }

  setEnabled(pluginId: string, enabled: boolean): Promise<unknown> {
    return this.client.json(`/api/plugins/${encodeURIComponent(pluginId)}/state`, { method: 'PUT', json: { enabled } });
  }

  uninstall(pluginId: string): Promise<unknown> {
    return this.client.json(`/api/plugins/${encodeURIComponent(pluginId)}`, { method: 'DELETE' });
  }

  restart(): Promise<unknown> {
    return this.client.json('/api/launcher/restart', { method: 'POST' });
  }
}

function packageForm(file: File): FormData {
  const form = new FormData();
  form.append('plugin', file, file.name);
  return form;
}
