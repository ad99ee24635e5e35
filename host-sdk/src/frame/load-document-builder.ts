/**
 * Loading {@link buildPluginDocument} on first use. Building a frame document (rewriting the
 * plugin's URLs, its CSS and `srcset`s, injecting the guard scripts) is needed only once a plugin
 * shows: the host loads it with the guest runtime's source, in parallel, at the first activation,
 * so a launcher page starts without it.
 */
import { ErrorCode, PluginHostError } from '../core/errors.js';
import { loadOnce } from '../load-once.js';
import type { buildPluginDocument } from './plugin-document.js';

const load = loadOnce(() => import('./plugin-document.js'));

/**
 * Resolves with `buildPluginDocument` (see `PluginDocumentOptions`), loading it once; calls made
 * while it loads share that load.
 *
 * @throws PluginHostError `PLUGIN_LOAD_FAILED` when it cannot be loaded; the next call tries again.
 * @example
 * ```ts
 * const buildPluginDocument = await loadPluginDocumentBuilder();
 * frame.srcdoc = buildPluginDocument({ html, pluginFilesBase, entryPath: 'index.html', guestRuntime, mode: 'overlay' });
 * ```
 */
export async function loadPluginDocumentBuilder(): Promise<typeof buildPluginDocument> {
  try {
    return (await load()).buildPluginDocument;
  } catch (error) {
    throw new PluginHostError(
      ErrorCode.PLUGIN_LOAD_FAILED,
      `The launcher could not load the code that builds plugin frame documents (${error instanceof Error ? error.message : String(error)}); reload the launcher and retry`,
    );
  }
}
