import type { HostServices } from '../host/host-services.js';

/** Destroys every overlay of `pluginId` (deactivation); loaded at start, unlike the overlay methods. */
export function destroyOverlaysOf(services: HostServices, pluginId: string): void {
  for (const id of services.overlays.idsOf(pluginId)) {
    services.ui.overlays.destroy(id);
    services.overlays.delete(id);
  }
}
