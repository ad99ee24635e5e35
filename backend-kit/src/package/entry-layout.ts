import type { EntryExtent } from './local-header.js';
import { invalidPackage, quoteEntry } from './package-errors.js';

/**
 * Checks that the entries tile the archive: in offset order, each begins exactly where the one
 * before ends, the first at offset 0 and the last at the central directory.
 *
 * - Overlapping entries are how "non-recursive" zip bombs reuse one compressed stream for many
 *   entries, and how two central records share one local header.
 * - Bytes that belong to no entry (prepended stubs, gaps, a second archive) are data the
 *   signature does not cover and other tools may read; a package has none.
 *
 * @throws PluginHostError `INVALID_PACKAGE` naming the entries concerned.
 */
export function checkEntryLayout(extents: readonly EntryExtent[], directoryOffset: number): void {
  const ordered = [...extents].sort((left, right) => left.start - right.start || left.end - right.end);
  let position = 0;
  let previous: EntryExtent | undefined;
  for (const extent of ordered) {
    if (extent.start < position) {
      throw invalidPackage(`entries ${quoteEntry(previous?.entry.path ?? '')} and ${quoteEntry(extent.entry.path)} overlap`, {
        entry: extent.entry.path,
        other: previous?.entry.path,
      });
    }
    if (extent.start > position) {
      throw invalidPackage(`${extent.start - position} bytes before entry ${quoteEntry(extent.entry.path)} belong to no entry`, { entry: extent.entry.path });
    }
    position = extent.end;
    previous = extent;
  }
  if (position !== directoryOffset) {
    throw invalidPackage(`${directoryOffset - position} bytes before the central directory belong to no entry`);
  }
}
