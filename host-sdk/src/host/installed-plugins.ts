import type { BackendClient } from './backend-client.js';
import type { ListedPlugin } from './dependency-gate.js';

/** The backend's plugin list as last read (`GET /api/plugins/`): what is installed, and its status. */
export class InstalledPlugins {
  private listed: ReadonlyMap<string, ListedPlugin> = new Map();

  constructor(private readonly backend: BackendClient) {}

  /**
   * Reads the list again, with each active plugin's manifest (and with `pages`, its page):
   * activating then needs no request for them. A backend that does not give them leaves them out,
   * and each is read from the plugin's files instead. The pages are handed back, not kept: once
   * its frame exists a page is not needed again.
   */
  async refresh(pages?: boolean): Promise<Map<string, unknown>> {
    const listed = await this.backend.json<(ListedPlugin & { page?: unknown })[]>(`/api/plugins/?include=manifest${pages ? ',page' : ''}`);
    const taken = new Map<string, unknown>();
    for (const plugin of listed) {
      taken.set(plugin.id, plugin.page);
      delete plugin.page;
    }
    this.listed = new Map(listed.map((plugin) => [plugin.id, plugin]));
    return taken;
  }

  get(id: string): ListedPlugin | undefined {
    return this.listed.get(id);
  }

  has(id: string): boolean {
    return this.listed.has(id);
  }

  /** The list by id (what the dependency gate's messages read). */
  get byId(): ReadonlyMap<string, ListedPlugin> {
    return this.listed;
  }
}
