import type { BridgeMethodIndex } from '../bridge/dispatch.js';
import { ErrorCode, PluginHostError } from '../core/errors.js';
import { indexMethods } from '../bridge/dispatch.js';
import { openPluginFrame } from './frame-connection.js';
import { guestReportsFor, type ReportSinks } from './guest-reports.js';
import { hostMethodsFor } from './host-methods.js';
import type { HostServices } from './host-services.js';
import type { PluginFiles } from './plugin-files.js';
import type { RunningPlugins } from './running-plugins.js';
import type { SandboxDocuments } from './sandbox-documents.js';

/** Direct members that leave a function with the host: only a plugin's main page may use them. */
const MAIN_PAGE_ONLY: ReadonlySet<string> = new Set(['registerMethod', 'registerHook', 'addMenuItem', 'proxyFetchStream']);

/** What {@link PageOpener} uses. */
export interface PageOpenerOptions {
  readonly document: Document;
  readonly services: HostServices;
  readonly running: RunningPlugins;
  readonly files: PluginFiles;
  readonly documents: SandboxDocuments;
  readonly sinks: ReportSinks;
  /** The bridge table of main pages; secondary pages get it without {@link MAIN_PAGE_ONLY}. */
  readonly index: BridgeMethodIndex;
}

/** An opened secondary page. */
export interface OpenedPage {
  readonly frame: HTMLIFrameElement;
  /** Disconnects the page and removes its frame. */
  close(): void;
}

/** Opens secondary pages of active plugins (a settings page, a menu item's page) in their own frames. */
export class PageOpener {
  /** The table for a plugin's secondary pages: what registers functions belongs to its main page. */
  private readonly pageIndex: BridgeMethodIndex;

  constructor(private readonly options: PageOpenerOptions) {
    this.pageIndex = indexMethods([...options.index.values()].filter((method) => !MAIN_PAGE_ONLY.has(method.name)));
  }

  /**
   * Opens `path` of `pluginId` in a new sandboxed frame inside `container`, connected as that
   * plugin; the page is closed with the plugin.
   *
   * @throws PluginHostError `PLUGIN_NOT_RUNNING` when the plugin is not active, `PLUGIN_LOAD_FAILED` or the page cannot be loaded.
   */
  async open(pluginId: string, path: string, container: HTMLElement): Promise<OpenedPage> {
    const { running, files } = this.options;
    const plugin = running.get(pluginId);
    if (!plugin) throw new PluginHostError(ErrorCode.PLUGIN_NOT_RUNNING, `${pluginId} is not active; activate it before opening its pages`);
    const html = await files.text(pluginId, path);
    const srcdoc = await this.options.documents.build(pluginId, html, path);
    const methods = hostMethodsFor(
      { id: pluginId, manifest: plugin.manifest },
      files.base(pluginId),
      this.options.services,
      this.pageIndex,
      guestReportsFor(plugin, this.options.sinks),
    );
    const { frame, connection } = openPluginFrame({ document: this.options.document, container, srcdoc, title: `${plugin.name}: ${path}`, pluginId, methods });
    const close = (): void => {
      plugin.pages.delete(close);
      connection.destroy();
      frame.remove();
    };
    plugin.pages.add(close);
    return { frame, close };
  }
}
