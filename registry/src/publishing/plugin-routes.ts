import type Router from '@koa/router';
import { jsonBody } from '@plughost/backend-kit';
import type { CatalogPlugin } from '../catalog/catalog-types.js';
import { RegistryError, invalidArgument, isRegistryError } from '../errors/registry-error.js';
import { jsonObjectBody } from '../http/request-input.js';
import { parsePluginInput, slugFromPluginId, type PluginInput } from './plugin-input.js';
import { requirePublisher, type Publisher } from './publisher-account.js';
import { ownedPluginView, type OwnedPluginList, type OwnedPluginView } from './publishing-views.js';
import type { PublishingServices } from './publishing-services.js';

/**
 * `GET /plugins/mine` → `{items: [plugin with every version and its status]}` of the caller
 * (`no-store`). `POST /plugins` `{id, slug?, name, description?, category?, tags?, iconUrl?}` →
 * 201 with the new plugin record owned by the caller; 200 with the existing record when the caller
 * owns it already (nothing changes); 403 `plugin_id_taken` when another account owns the id; 409
 * `slug_taken`. `/plugins/mine` must be mounted before the catalog's `/plugins/<slug>`.
 */
export function addPluginRoutes(router: Router, services: PublishingServices): void {
  const { context, catalog, authenticate } = services;

  async function viewOf(plugin: CatalogPlugin): Promise<OwnedPluginView> {
    return ownedPluginView(plugin, await catalog.versionsOf(plugin.id));
  }

  /** The existing record when the caller owns it; 403 when someone else does; `null` when none. */
  async function ownExisting(input: PluginInput, publisher: Publisher): Promise<CatalogPlugin | null> {
    const existing = await catalog.getPlugin(input.id);
    if (existing === null) return null;
    if (existing.ownerAccountId !== publisher.accountId) throw new RegistryError('plugin_id_taken', `The plugin id ${input.id} belongs to another account`);
    if (input.slug !== undefined && input.slug !== existing.slug) {
      throw invalidArgument(`The plugin ${input.id} exists with the slug ${existing.slug}; a slug never changes`);
    }
    return existing;
  }

  router.get('/plugins/mine', async (ctx) => {
    const publisher = await requirePublisher(ctx, authenticate);
    const plugins = await catalog.pluginsOwnedBy(publisher.accountId);
    const body: OwnedPluginList = { items: await Promise.all(plugins.map(viewOf)) };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.post('/plugins', jsonBody('64kb'), async (ctx) => {
    const publisher = await requirePublisher(ctx, authenticate);
    const input = parsePluginInput(jsonObjectBody(ctx));
    const existing = await ownExisting(input, publisher);
    if (existing !== null) {
      ctx.body = await viewOf(existing);
      return;
    }
    const slug = input.slug ?? slugFromPluginId(input.id);
    if (slug === null) throw invalidArgument(`No slug can be derived from ${input.id}; send one (a-z, 0-9 and single hyphens)`);
    let created: CatalogPlugin;
    try {
      created = await catalog.createPlugin({
        id: input.id,
        slug,
        ownerAccountId: publisher.accountId,
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.category !== undefined ? { category: input.category } : {}),
        ...(input.tags !== undefined ? { tags: input.tags } : {}),
        ...(input.iconUrl !== undefined ? { iconUrl: input.iconUrl } : {}),
        createdAt: context.now().toISOString(),
      });
    } catch (error) {
      // Created meanwhile by a concurrent request: answer as for an existing record.
      const raced = isRegistryError(error) && error.code === 'plugin_id_taken' ? await ownExisting(input, publisher) : null;
      if (raced === null) throw error;
      ctx.body = await viewOf(raced);
      return;
    }
    ctx.status = 201;
    ctx.body = await viewOf(created);
  });
}
