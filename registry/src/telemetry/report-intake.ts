import { createHmac } from 'node:crypto';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { ErrorReportBody } from './error-report-body.js';
import { reporterNetworkOf } from './reporter-network.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` of a time, in UTC. */
function utcDayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The reporter network under one day's salt: HMAC-SHA256, base64url. */
function reporterHash(salt: Uint8Array, network: string): string {
  return createHmac('sha256', salt).update(network).digest('base64url');
}

/** Where and when a report arrived. */
export interface ReportArrival {
  /** The client address (see `clientAddressOf`). */
  readonly clientAddress: string;
  readonly now: Date;
}

/**
 * Stores a validated report for the automatic rollout pause (decisions section 6) and says whether
 * it was stored. A report counts only for the plugin whose manifest id or slug its `pluginId`
 * equals exactly, and only for a published version with exactly its `pluginVersion`; anything
 * else is dropped (the route still answers 202, so the intake reveals nothing about the catalog
 * and a launcher has no reason to retry). The sender is kept only as its reporter network hashed
 * with the salt of the UTC day, a secret the store deletes two days later; the address, the
 * network and the headers are never stored. The previous day's hash lets the same network's
 * earlier reports be merged with this one, so it is counted once across midnight.
 */
export async function recordErrorReport(catalog: CatalogRepository, report: ErrorReportBody, arrival: ReportArrival): Promise<boolean> {
  const plugin = (await catalog.getPlugin(report.pluginId)) ?? (await catalog.getPluginBySlug(report.pluginId));
  if (plugin === null) return false;
  const version = await catalog.publishedVersion(plugin.slug, report.pluginVersion);
  if (version === null) return false;
  const time = arrival.now.getTime();
  const salts = await catalog.reporterSalts(utcDayOf(time), utcDayOf(time - DAY_MS));
  const network = reporterNetworkOf(arrival.clientAddress);
  await catalog.addReport({
    pluginId: plugin.id,
    pluginVersion: version.version,
    errorType: report.errorType,
    launcherVersion: report.launcherVersion,
    receivedAt: arrival.now.toISOString(),
    reporter: reporterHash(salts.current, network),
    ...(salts.previous ? { previousReporter: reporterHash(salts.previous, network) } : {}),
  });
  return true;
}
