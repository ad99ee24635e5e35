import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { ErrorReportBody } from './error-report-body.js';
import { networkHash, utcDayOf } from './network-hash.js';
import { reporterNetworkOf } from './reporter-network.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where and when a report arrived. */
export interface ReportArrival {
  /** The client address (see `clientAddressOf`). */
  readonly clientAddress: string;
  readonly now: Date;
}

/**
 * Stores a validated report for the automatic rollout pause (decisions sections 6 and 12) and says
 * whether it was stored. A report counts for the plugin whose manifest id or slug its `pluginId`
 * equals exactly, for a published version with exactly its `pluginVersion`, and only when the
 * sender's network listed that id@version as installed in a check-updates the same UTC day: proof
 * that the reporter runs it, so networks that never ran a version (a few cloud hosts) cannot
 * withhold it, and a version nobody runs yet cannot be reported at all. Anything else is dropped
 * (the route still answers 202, so the intake reveals nothing about the catalog or what was
 * listed, and a launcher has no reason to retry). The sender is kept only as its reporter network
 * hashed with the salt of the UTC day, a secret the store deletes two days later; the address, the
 * network and the headers are never stored. The previous day's hash lets the same network's
 * earlier reports be merged with this one, so it is counted once across midnight.
 */
export async function recordErrorReport(catalog: CatalogRepository, report: ErrorReportBody, arrival: ReportArrival): Promise<boolean> {
  const plugin = (await catalog.getPlugin(report.pluginId)) ?? (await catalog.getPluginBySlug(report.pluginId));
  if (plugin === null) return false;
  const version = await catalog.publishedVersion(plugin.slug, report.pluginVersion);
  if (version === null) return false;
  const time = arrival.now.getTime();
  const day = utcDayOf(time);
  const salts = await catalog.reporterSalts(day, utcDayOf(time - DAY_MS));
  const network = reporterNetworkOf(arrival.clientAddress);
  const reporter = networkHash(salts.current, network);
  if (!(await catalog.listedInstalled(day, reporter, { pluginId: plugin.id, version: version.version }))) return false;
  await catalog.addReport({
    pluginId: plugin.id,
    pluginVersion: version.version,
    errorType: report.errorType,
    launcherVersion: report.launcherVersion,
    receivedAt: arrival.now.toISOString(),
    reporter,
    ...(salts.previous ? { previousReporter: networkHash(salts.previous, network) } : {}),
  });
  return true;
}
