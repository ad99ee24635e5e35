import { randomId } from './random-id.js';

/**
 * Ids a plugin created (overlays, streams), each remembered with its owner, so a plugin can only
 * address what it made: another plugin's id is answered as unknown.
 */
export class OwnedIds<T = undefined> {
  private readonly owners = new Map<string, { owner: string; value: T }>();

  /** Records a new id (random, or `id` when the caller chose one) and returns it. */
  add(owner: string, value: T, id: string = randomId()): string {
    this.owners.set(id, { owner, value });
    return id;
  }

  /** The value of `id` when `owner` made it. */
  get(owner: string, id: unknown): T | undefined {
    if (typeof id !== 'string') return undefined;
    const entry = this.owners.get(id);
    return entry?.owner === owner ? entry.value : undefined;
  }

  has(owner: string, id: unknown): boolean {
    return typeof id === 'string' && this.owners.get(id)?.owner === owner;
  }

  delete(id: string): void {
    this.owners.delete(id);
  }

  /** Ids of `owner`. */
  idsOf(owner: string): string[] {
    return [...this.owners].filter(([, entry]) => entry.owner === owner).map(([id]) => id);
  }
}
