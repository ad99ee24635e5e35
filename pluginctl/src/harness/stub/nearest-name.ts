/**
 * "Did you mean" for names a person typed (mock file keys and fields): the known name closest to
 * `typed` by edit distance, ignoring letter case, when it is close enough to be a likely typo.
 */

/** Levenshtein distance between two strings, in UTF-16 units. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The name of `known` nearest to `typed`, or `null` when none is within a third of its length
 * (at least 2 edits): beyond that a suggestion is more confusing than helpful.
 */
export function nearestName(typed: string, known: readonly string[]): string | null {
  const lower = typed.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (best === null || distance < best.distance) best = { name, distance };
  }
  if (best === null) return null;
  return best.distance <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : null;
}
