import { PluginHostError, type AnsweringSource, type DownloadInfo, type RegistrySources } from '@plughost/host-sdk/core';

/** A published version as one source lists it, with that source's Download info. */
export interface ListedPackage {
  /** The exact version (`latest` resolved by the listing). */
  readonly version: string;
  /** The plugin id the source's listing names. */
  readonly id: string;
  /** Permission ids the listing shows for the version. */
  readonly permissions: readonly string[];
  readonly info: DownloadInfo;
  readonly source: AnsweringSource;
}

/**
 * Reads the listing of `slug@version` (`GET /plugins/<slug>`) and its Download info from the same
 * source, the active one or, after a 5xx or time-out, the next usable one: what the package must
 * then match is what that source listed, so a source cannot name one plugin in its listing and
 * serve another.
 *
 * @throws PluginHostError `NOT_FOUND` when the source lists no such plugin or version, and what
 *   {@link RegistrySources.read} throws.
 */
export async function readListedPackage(sources: RegistrySources, slug: string, version: string, signal?: AbortSignal): Promise<ListedPackage> {
  const { value, source } = await sources.read(
    async (client, deadline) => {
      const detail = await client.detail(slug, { signal: deadline });
      const exact = version === 'latest' ? detail.latestVersion : version;
      const entry = exact === undefined ? undefined : detail.versions.find((candidate) => candidate.version === exact);
      if (!entry) throw new PluginHostError('NOT_FOUND', `The store lists no version ${version} of ${slug}`);
      const info = await client.downloadInfo(slug, entry.version, { signal: deadline });
      return { version: entry.version, id: detail.id, permissions: entry.permissions, info };
    },
    signal ? { signal } : {},
  );
  return { ...value, source };
}
