import { createHmac } from 'node:crypto';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import { reporterNetworkOf } from './reporter-network.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` of a time (milliseconds), in UTC. */
export function utcDayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** A network (`reporterNetworkOf`) under one day's salt: HMAC-SHA256, base64url. */
export function networkHash(salt: Uint8Array, network: string): string {
  return createHmac('sha256', salt).update(network).digest('base64url');
}

/** A client's network as the registry keeps it for one UTC day. */
export interface HashedNetwork {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  /** The network under the day's salt. */
  readonly hash: string;
}

/**
 * The network of a client address under the salt of the current UTC day, the value its error
 * reports and its check-updates' installed versions are both kept under (decisions sections 6 and
 * 12), so the two can be matched within the day and with nothing else. The day's salt is read
 * (and created, once, also with several instances) through `catalog.reporterSalts` on the first
 * call of each day and then kept in memory: a salt never changes once written, and check-updates,
 * the registry's busiest route, should not write a salt row on every request.
 */
export class NetworkHasher {
  private day = '';
  private salt: Uint8Array | null = null;

  constructor(private readonly catalog: Pick<CatalogRepository, 'reporterSalts'>) {}

  /** The network of `address` hashed with the salt of the UTC day of `now`. */
  async hashOf(address: string, now: Date): Promise<HashedNetwork> {
    const time = now.getTime();
    const day = utcDayOf(time);
    let salt = this.day === day ? this.salt : null;
    if (salt === null) {
      salt = (await this.catalog.reporterSalts(day, utcDayOf(time - DAY_MS))).current;
      this.day = day;
      this.salt = salt;
    }
    return { day, hash: networkHash(salt, reporterNetworkOf(address)) };
  }
}
