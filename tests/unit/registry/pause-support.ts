/**
 * Reporter networks of the automatic rollout pause (decisions section 12): a report counts only
 * when its network listed that id@version installed in a `POST /plugins/check-updates` on the same
 * UTC day, so a test network lists the version first, from the address it then reports from
 * (`client-network-support.ts` binds each to its own loopback /24).
 */
import { expect } from 'vitest';
import { sendFrom } from './client-network-support.js';

/** Where a request comes from: a loopback source address and, behind a trusted proxy, `X-Forwarded-For`. */
export interface ReporterOrigin {
  /** The client socket's source address (`127.0.N.1`). */
  readonly from: string;
  /** Sent as `X-Forwarded-For` when given. */
  readonly forwardedFor?: string;
}

/** An error report's body (the four fields of the specification). */
export interface TestReport {
  readonly pluginId: string;
  readonly pluginVersion: string;
  readonly errorType: string;
  readonly launcherVersion: string;
}

function headersOf(origin: ReporterOrigin): Record<string, string> {
  return origin.forwardedFor === undefined ? {} : { 'X-Forwarded-For': origin.forwardedFor };
}

/** `POST <base>/plugins/check-updates` listing `installed`, from `origin`. */
export async function listInstalled(base: string, origin: ReporterOrigin, installed: readonly { slug: string; version: string }[]): Promise<void> {
  const response = await sendFrom(`${base}/plugins/check-updates`, {
    json: { launcherVersion: '2.0.0', installed },
    headers: headersOf(origin),
    localAddress: origin.from,
  });
  expect(response.status).toBe(200);
}

/** `POST <base>/telemetry/plugin-error` from `origin` (always answered 202). */
export async function sendReport(base: string, origin: ReporterOrigin, report: TestReport): Promise<void> {
  const response = await sendFrom(`${base}/telemetry/plugin-error`, { json: report, headers: headersOf(origin), localAddress: origin.from });
  expect(response.status).toBe(202);
}

/** A network that runs `slug@report.pluginVersion` (it lists it in check-updates) and reports an error of it. */
export async function runAndReport(base: string, origin: ReporterOrigin, slug: string, report: TestReport): Promise<void> {
  await listInstalled(base, origin, [{ slug, version: report.pluginVersion }]);
  await sendReport(base, origin, report);
}
