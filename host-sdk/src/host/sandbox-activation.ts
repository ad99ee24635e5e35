import type { GuestMethods } from '../core/bridge/protocol.js';
import { containerFor, stoppedWhileLoading, type ActivationContext } from './activation-context.js';
import { dependenciesSettled } from './dependency-gate.js';
import { openPluginFrame } from './frame-connection.js';
import { guestReportsFor } from './guest-reports.js';
import { startHeartbeat } from './heartbeat.js';
import { hostMethodsFor } from './host-methods.js';
import type { RunningPlugin } from './running-plugins.js';
import { withTimeout } from './with-timeout.js';

/**
 * Loads a plugin's main page in its sandboxed frame, connects it, and resolves with its guest once
 * it said hello and the plugins it depends on have settled; then starts its heartbeat.
 *
 * @throws PluginHostError `PLUGIN_NOT_RUNNING` when the plugin was stopped meanwhile, `PLUGIN_TIMEOUT` when it did not connect in time.
 */
export async function activateSandboxed(context: ActivationContext, plugin: RunningPlugin, html: string, entryPath: string): Promise<GuestMethods> {
  const { running, services, sinks } = context;
  const id = plugin.id;
  const srcdoc = await context.documents.build(id, html, entryPath);
  if (!running.isCurrent(plugin)) throw stoppedWhileLoading(id);
  let helloCount = 0;
  let saidHello: () => void = () => {};
  const helloReceived = new Promise<void>((resolve) => (saidHello = resolve));
  const dependencies = dependenciesSettled(plugin.manifest, running.byId);
  const reports = guestReportsFor(plugin, sinks, () => {
    // A second hello comes from a reloaded document: what the old one registered is gone with it.
    if (++helloCount > 1) running.forgetDocumentState(id);
    saidHello();
    return dependencies;
  });
  const methods = hostMethodsFor({ id, manifest: plugin.manifest }, context.files.base(id), services, context.index, reports);
  const { frame, connection } = openPluginFrame({
    document: context.document,
    container: containerFor(context.frameContainer, id),
    srcdoc,
    title: plugin.name,
    pluginId: id,
    hidden: true,
    methods,
  });
  plugin.frame = frame;
  plugin.connection = connection;
  const timeoutMs = context.connectTimeoutMs;
  const [remote] = await withTimeout(
    Promise.all([connection.promise, helloReceived]),
    timeoutMs,
    `${plugin.name} did not connect within ${timeoutMs / 1000} s: its page may be broken or stuck before the plugin API loaded`,
  );
  await dependencies;
  plugin.stopHeartbeat = startHeartbeat(plugin, {
    ...context.heartbeat,
    isCurrent: () => running.isCurrent(plugin),
    unresponsive: () => {
      sinks.reporter.report(id, plugin.manifest.version, 'plugin_runtime_error');
      sinks.events.emit({ type: 'unresponsive', pluginId: id });
    },
    responsive: () => sinks.events.emit({ type: 'responsive', pluginId: id }),
  });
  return remote as unknown as GuestMethods;
}
