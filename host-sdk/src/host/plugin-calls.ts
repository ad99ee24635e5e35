import { pluginMethodUnavailable, wireErrorToError } from '../core/bridge/bridge-errors.js';
import type { HostServices } from './host-services.js';
import type { InstalledPlugins } from './installed-plugins.js';
import type { RunningPlugins } from './running-plugins.js';
import { withTimeout } from './with-timeout.js';

/**
 * Calls a method `pluginId` registered, as the launcher: waits for a plugin still loading, then
 * refuses with the `callPlugin` rejection text when the plugin or method is not there.
 *
 * @throws Error with that text, or the plugin's own error, or a time-out.
 */
export async function callPluginMethod(
  parts: { readonly running: RunningPlugins; readonly installed: InstalledPlugins; readonly services: HostServices },
  pluginId: string,
  method: string,
  args: readonly unknown[],
): Promise<unknown> {
  const { running, installed, services } = parts;
  const loading = running.get(pluginId);
  if (loading?.state === 'loading') await loading.ready;
  const target = running.get(pluginId);
  const reason = !installed.has(pluginId)
    ? 'not-installed'
    : target?.state !== 'active'
      ? 'inactive'
      : !services.methods.has(pluginId, method)
        ? 'no-such-method'
        : undefined;
  if (reason !== undefined || !target) throw wireErrorToError(pluginMethodUnavailable(pluginId, method, reason ?? 'inactive'));
  const result = await withTimeout(target.guest.invokeMethod(method, [...args]), services.timeouts.crossPluginCallMs, `${pluginId} did not answer ${method}`);
  if (!result.ok) throw wireErrorToError(result.error);
  return result.value;
}
