import type { BridgeMethodIndex } from '../bridge/dispatch.js';
import { ErrorCode, PluginHostError } from '../core/errors.js';
import type { ReportSinks } from './guest-reports.js';
import type { HostServices } from './host-services.js';
import type { InstalledPlugins } from './installed-plugins.js';
import type { PluginFiles } from './plugin-files.js';
import type { RunningPlugins } from './running-plugins.js';
import type { SandboxDocuments } from './sandbox-documents.js';

/** One element for every plugin, or a function giving each plugin its own. */
export type ContainerOption = HTMLElement | ((pluginId: string) => HTMLElement);

/** The element `option` gives `pluginId`. */
export function containerFor(option: ContainerOption, pluginId: string): HTMLElement {
  return typeof option === 'function' ? option(pluginId) : option;
}

/** The error of an activation overtaken by a deactivation or reload of the same plugin. */
export function stoppedWhileLoading(id: string): PluginHostError {
  return new PluginHostError(ErrorCode.PLUGIN_NOT_RUNNING, `${id} was stopped while it loaded`);
}

/** What activating a plugin uses: the host's parts, shared by the sandboxed and inline paths. */
export interface ActivationContext {
  readonly document: Document;
  readonly services: HostServices;
  readonly running: RunningPlugins;
  readonly installed: InstalledPlugins;
  readonly files: PluginFiles;
  readonly documents: SandboxDocuments;
  readonly sinks: ReportSinks;
  /** The bridge table of a plugin's main page. */
  readonly index: BridgeMethodIndex;
  readonly frameContainer: ContainerOption;
  readonly inlineContainer: ContainerOption | undefined;
  /** Nonce of the page's Content-Security-Policy, set on every script the host injects. */
  readonly cspNonce: string | undefined;
  /** Each plugin's own time to connect and say hello. */
  readonly connectTimeoutMs: number;
  readonly heartbeat: { readonly intervalMs: number; readonly timeoutMs: number };
}
