import { findVersionProblem } from '@plughost/host-sdk/core';
import { versionOrder } from '../catalog/version-key.js';

/** Distinct version strings one {@link VersionFactsMemo} keeps at most. */
export const VERSION_FACTS_ENTRIES = 4_096;

/** What check-updates needs to know about a version string a launcher sent. */
export interface VersionFacts {
  /** `findVersionProblem(version)`: why it is not a strict semver version, or `null`. */
  readonly problem: string | null;
  /** `versionOrder(version).key` when `problem` is `null`, else `null`. */
  readonly key: string | null;
}

/**
 * {@link VersionFacts} of version strings, remembered. A check-updates lists up to 500 installed
 * versions, and the body check and the comparison each parsed every one (a tenth of the route's
 * CPU under load, issue 18), while a fleet's launchers send few distinct strings. The facts are a
 * pure function of the string, so an entry never goes stale; at most `maxEntries` strings are
 * kept and the memo starts empty again when a new one would pass that, so requests made of
 * distinct strings cost memory only up to the bound.
 */
export class VersionFactsMemo {
  private readonly facts = new Map<string, VersionFacts>();

  constructor(private readonly maxEntries = VERSION_FACTS_ENTRIES) {}

  /** The facts of `version` (computed on first sight). */
  of(version: string): VersionFacts {
    let facts = this.facts.get(version);
    if (facts === undefined) {
      const problem = findVersionProblem(version);
      facts = { problem, key: problem === null ? versionOrder(version).key : null };
      if (this.facts.size >= this.maxEntries) this.facts.clear();
      this.facts.set(version, facts);
    }
    return facts;
  }

  /** Strings kept now (for tests). */
  get size(): number {
    return this.facts.size;
  }
}

/** The registry's memo (one per process: the facts do not depend on any instance's data). */
export const installedVersionFacts = new VersionFactsMemo();
