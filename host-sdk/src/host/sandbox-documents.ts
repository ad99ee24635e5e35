import { loadPluginDocumentBuilder } from '../frame/load-document-builder.js';
import type { PluginFiles } from './plugin-files.js';

/** Options of {@link SandboxDocuments}. */
export interface SandboxDocumentsOptions {
  readonly files: PluginFiles;
  /** The guest runtime's source, or a function that loads it (called once, on first use). */
  readonly guestRuntime: string | (() => Promise<string>);
  /** Nonce of the page's Content-Security-Policy, set on every script the host injects. */
  readonly cspNonce?: string;
}

/** Builds the `srcdoc` of a plugin's sandboxed frame: its page with the guest runtime injected. */
export class SandboxDocuments {
  private runtime: Promise<string> | undefined;

  constructor(private readonly options: SandboxDocumentsOptions) {}

  /**
   * The frame document of `html` (the plugin's page at `entryPath`). The document builder loads
   * with the guest runtime's source, in parallel, on first use.
   *
   * @throws PluginHostError `PLUGIN_LOAD_FAILED` when the document builder cannot be loaded.
   */
  async build(pluginId: string, html: string, entryPath: string): Promise<string> {
    const { cspNonce } = this.options;
    const [buildPluginDocument, guestRuntime] = await Promise.all([loadPluginDocumentBuilder(), this.runtimeSource()]);
    return buildPluginDocument({
      html,
      pluginFilesBase: this.options.files.base(pluginId),
      entryPath,
      guestRuntime,
      mode: 'sandbox',
      ...(cspNonce ? { cspNonce } : {}),
    });
  }

  private runtimeSource(): Promise<string> {
    const source = this.options.guestRuntime;
    this.runtime ??= typeof source === 'string' ? Promise.resolve(source) : source();
    return this.runtime;
  }
}
