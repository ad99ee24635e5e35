import type { CallingPlugin } from '../bridge/bridge-method.js';
import type { PluginErrorReporter } from './error-reporter.js';
import type { HostEvents } from './host-events.js';
import type { GuestReports, GuestRuntimeError } from './host-methods.js';

/** Where a plugin's reports go: telemetry (types only) and the launcher's event listeners. */
export interface ReportSinks {
  readonly reporter: PluginErrorReporter;
  readonly events: HostEvents;
}

/**
 * What the host does with the reports of one of `plugin`'s documents (its main page, an inline
 * mount, or a page opened with `openPage`); `connected` answers its `hello`.
 */
export function guestReportsFor(plugin: CallingPlugin, sinks: ReportSinks, connected: () => Promise<void> | void = () => {}): GuestReports {
  return {
    runtimeError: (error: GuestRuntimeError) => {
      // Telemetry gets the error type only: the message and stack stay on this machine.
      sinks.reporter.report(plugin.id, plugin.manifest.version, 'plugin_runtime_error');
      sinks.events.emit({ type: 'runtime-error', pluginId: plugin.id, ...error });
    },
    loadFailure: (resource: string) => {
      sinks.reporter.report(plugin.id, plugin.manifest.version, 'plugin_load_failed');
      sinks.events.emit({ type: 'load-failed', pluginId: plugin.id, message: `A resource failed to load: ${resource}` });
    },
    connected,
  };
}
