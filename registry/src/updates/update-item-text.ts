import type { CatalogVersion } from '../catalog/catalog-types.js';
import { downloadInfoBuilder, updateItemView, type DownloadInfoBuilder } from '../protocol/views.js';
import type { OfferedUpdate } from './find-updates.js';

/** An item's JSON text around its `currentVersion`, the one field that varies per request. */
interface ItemParts {
  readonly slug: string;
  readonly baseUrl: string;
  /** `{"slug":…,"currentVersion":` */
  readonly head: string;
  /** `,"latestVersion":…,"download":{…}}` */
  readonly tail: string;
}

/**
 * The JSON text of check-updates items, each exactly `JSON.stringify(updateItemView(...))`, with
 * the text of everything but `currentVersion` built once per version object and joined per
 * request. Building 180 item objects (a URL parse each with a mirror) and stringifying 71 KB on
 * every request was most of the route's own CPU under load (issue 18).
 *
 * Why this cannot serve stale text: an entry is keyed by the identity of the version object
 * (a `WeakMap`), and version objects are never changed; `LatestVersionCache` hands out the same
 * object only while the catalog revision it reads on every request stands, and a fresh lookup
 * makes new objects, whose entries start empty (the old ones go with their objects). The public
 * URL (which may follow the request's local address) and the slug are compared on every use and
 * rebuild the entry when they differ; the mirrors are fixed per instance, as the options are.
 */
export class UpdateItemTexts {
  private readonly parts = new WeakMap<CatalogVersion, ItemParts>();
  private builderBase: string | undefined;
  private builder: DownloadInfoBuilder | undefined;

  constructor(private readonly mirrors: readonly string[]) {}

  /** `JSON.stringify(updateItemView(offer.slug, offer.currentVersion, offer.version, ...))` with the download info of `baseUrl`. */
  text(offer: OfferedUpdate, baseUrl: string): string {
    let parts = this.parts.get(offer.version);
    if (parts === undefined || parts.baseUrl !== baseUrl || parts.slug !== offer.slug) {
      parts = this.build(offer.slug, offer.version, baseUrl);
      this.parts.set(offer.version, parts);
    }
    return parts.head + JSON.stringify(offer.currentVersion) + parts.tail;
  }

  private build(slug: string, version: CatalogVersion, baseUrl: string): ItemParts {
    if (this.builder === undefined || this.builderBase !== baseUrl) {
      this.builder = downloadInfoBuilder(baseUrl, this.mirrors);
      this.builderBase = baseUrl;
    }
    // The object path's own text, so the two cannot drift apart: `slug` and `currentVersion` are
    // its first two fields, and the rest is the same object's text without them.
    const { slug: _slug, currentVersion: _current, ...rest } = updateItemView(slug, '', version, this.builder);
    return { slug, baseUrl, head: `{"slug":${JSON.stringify(slug)},"currentVersion":`, tail: `,${JSON.stringify(rest).slice(1)}` };
  }
}

/** The JSON text of `{updates: [...]}` whose items are the texts given (see {@link UpdateItemTexts}). */
export function checkUpdatesResponseText(itemTexts: readonly string[]): string {
  return `{"updates":[${itemTexts.join(',')}]}`;
}
