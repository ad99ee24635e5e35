import type { CheckUpdatesRequest, CheckUpdatesResponse, RegistrySources, SourcedResult, UpdateItem } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';
import type { CheckedPlugin } from './available-updates.js';

/** One check-updates answer and the plugins it was asked about. */
export interface CheckBatch {
  readonly items: readonly UpdateItem[];
  readonly plugins: readonly CheckedPlugin[];
  /**
   * The source whose offers these are when only it was asked (a plugin's recorded source): its
   * updates download from it alone. `null` for the active source's answer, whose updates download
   * like any store read (the active source, then the next usable one).
   */
  readonly pinnedSource: string | null;
}

/** What {@link checkRecordedSources} needs. */
export interface RecordedSourceCheck {
  readonly sources: Pick<RegistrySources, 'status' | 'onSource'>;
  readonly logger: BackendLogger;
  /** The check-updates body for some of the plugins. */
  readonly requestFor: (plugins: readonly CheckedPlugin[]) => CheckUpdatesRequest;
}

/**
 * True when `url` is a configured source that is enabled and usable now, and whose last call did
 * not fail: a source the user removed or turned off is never asked, even for the plugins installed
 * from it, and one that just timed out (the active source the check fell back from) is not asked
 * again within the same check.
 */
export function isAskableSource(sources: Pick<RegistrySources, 'status'>, url: string): boolean {
  return sources.status().some((source) => source.url === url && source.enabled && source.usable && source.lastError === null);
}

/**
 * Asks each plugin's recorded source about the plugins the answering source left out (decisions
 * section 12). Check-updates answers only slugs with an update, so a plugin installed from a
 * backup source that the active source does not list would otherwise never be offered one. Only
 * sources other than the one that answered are asked, each once with its own plugins, and only
 * when it is enabled and usable; a source that fails is logged and skipped, so the check itself
 * still succeeds with what the others said.
 */
export async function checkRecordedSources(
  check: RecordedSourceCheck,
  plugins: readonly CheckedPlugin[],
  answered: SourcedResult<CheckUpdatesResponse>,
): Promise<CheckBatch[]> {
  const offered = new Set(answered.value.updates.map((item) => item.slug));
  const bySource = new Map<string, CheckedPlugin[]>();
  for (const plugin of plugins) {
    if (offered.has(plugin.slug) || plugin.source === answered.source.url) continue;
    bySource.set(plugin.source, [...(bySource.get(plugin.source) ?? []), plugin]);
  }
  const batches: CheckBatch[] = [];
  for (const [url, group] of bySource) {
    if (!isAskableSource(check.sources, url)) continue;
    try {
      const { value } = await check.sources.onSource(url, (client, signal) => client.checkUpdates(check.requestFor(group), { signal }));
      batches.push({ items: value.updates, plugins: group, pinnedSource: url });
    } catch (error) {
      check.logger.warn("A plugin's recorded store source could not be checked for updates; the next check asks again", {
        source: url,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return batches;
}
