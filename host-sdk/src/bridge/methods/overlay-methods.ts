import { findPackagePathProblem } from '../../core/package-path.js';
import { BridgeFailure } from '../../host/backend-client.js';
import type { HostServices } from '../../host/host-services.js';
import type { OverlayOptions } from '../../host/ui-adapter.js';
import type { BridgeCallContext } from '../bridge-method.js';
import type { BridgeHandler } from '../lazy-handlers.js';
import { badArgument, optionalNumber, optionalObjectArgument } from './arguments.js';

const MAX_OVERLAY_HTML = 1024 * 1024;

function overlayOptions(raw: Record<string, unknown>): OverlayOptions {
  const method = 'overlay.create';
  const text = (name: string, limit: number): string | undefined => {
    const value = raw[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length > limit) throw badArgument(method, `"${name}" must be a string of at most ${limit} characters`);
    return value;
  };
  const flag = (name: string): boolean | undefined => {
    const value = raw[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw badArgument(method, `"${name}" must be a boolean`);
    return value;
  };
  const file = text('file', 512);
  if (file !== undefined && findPackagePathProblem(file) !== null) throw badArgument(method, '"file" must be a path inside the plugin package');
  const options: Record<string, unknown> = { title: text('title', 200), html: text('html', MAX_OVERLAY_HTML), file };
  for (const name of ['x', 'y', 'width', 'height']) options[name] = optionalNumber(method, raw[name], name);
  options.minimizable = flag('minimizable');
  options.resizable = flag('resizable');
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as OverlayOptions;
}

/** The caller's own overlay id, or a refusal (another plugin's id is unknown to it). */
function ownOverlay(services: HostServices, pluginId: string, method: string, id: unknown): string {
  if (!services.overlays.has(pluginId, id)) throw new BridgeFailure({ message: `${method}: no overlay ${String(id)} of this plugin` });
  return id as string;
}

/** `overlay.show`, `.hide`, `.destroy` of the caller's own overlay. */
function overlayAction({ plugin, services }: BridgeCallContext, args: readonly unknown[], action: 'show' | 'hide' | 'destroy'): null {
  const id = ownOverlay(services, plugin.id, `overlay.${action}`, args[0]);
  services.ui.overlays[action](id);
  if (action === 'destroy') services.overlays.delete(id);
  return null;
}

/** `overlay.create`, `.show`, `.hide`, `.destroy`, `.setHtml`, `.setPosition`. */
export const handlers = {
  'overlay.create': async ({ plugin, services }, args) => {
    const options = overlayOptions(optionalObjectArgument('overlay.create', args, 0, 'options'));
    const id = services.overlays.add(plugin.id, undefined);
    await services.ui.overlays.create(plugin.id, id, options);
    return id;
  },
  'overlay.show': (context, args) => overlayAction(context, args, 'show'),
  'overlay.hide': (context, args) => overlayAction(context, args, 'hide'),
  'overlay.destroy': (context, args) => overlayAction(context, args, 'destroy'),
  'overlay.setHtml': ({ plugin, services }, args) => {
    const id = ownOverlay(services, plugin.id, 'overlay.setHtml', args[0]);
    const html = args[1];
    if (typeof html !== 'string' || html.length > MAX_OVERLAY_HTML) throw badArgument('overlay.setHtml', '"html" must be a string of at most 1 MiB');
    services.ui.overlays.setHtml(id, html);
    return null;
  },
  'overlay.setPosition': ({ plugin, services }, args) => {
    const id = ownOverlay(services, plugin.id, 'overlay.setPosition', args[0]);
    const x = optionalNumber('overlay.setPosition', args[1], 'x');
    const y = optionalNumber('overlay.setPosition', args[2], 'y');
    if (x === undefined || y === undefined) throw badArgument('overlay.setPosition', '"x" and "y" must be numbers');
    services.ui.overlays.setPosition(id, x, y);
    return null;
  },
} satisfies Readonly<Record<string, BridgeHandler>>;
