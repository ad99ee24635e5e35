/**
 * The rollout bucket of decisions section 6: which installations see an update that a store rolls
 * out to a percentage of its users.
 */
import { sha256 } from '../signing/sha256.js';

const encoder = new TextEncoder();

/**
 * The bucket (0 to 99) of one installation for one update: the first 4 bytes, big-endian
 * unsigned, of SHA-256 of `<installationId>:<slug>@<latestVersion>`, modulo 100. Deliberately not
 * the specification's bare hash of `<slug>@<latestVersion>`, which would give every installation
 * the same answer: with the installation's own random id the result is stable for one user and
 * differs between users. The id never leaves the machine.
 *
 * @example
 * ```ts
 * rolloutBucket(settings.installationId, 'map-tools', '1.2.0'); // 0..99, the same every time
 * ```
 */
export function rolloutBucket(installationId: string, slug: string, latestVersion: string): number {
  const digest = sha256(encoder.encode(`${installationId}:${slug}@${latestVersion}`));
  const first = (((digest[0] ?? 0) << 24) >>> 0) + ((digest[1] ?? 0) << 16) + ((digest[2] ?? 0) << 8) + (digest[3] ?? 0);
  return first % 100;
}

/**
 * True when this installation is offered the update: its bucket is below `rolloutPercent`
 * (0 offers it to nobody, 100 to everyone; an absent percentage means 100, the specification's rule).
 */
export function isInRollout(installationId: string, slug: string, latestVersion: string, rolloutPercent: number | undefined): boolean {
  const percent = rolloutPercent ?? 100;
  if (percent >= 100) return true;
  if (!(percent > 0)) return false;
  return rolloutBucket(installationId, slug, latestVersion) < percent;
}
