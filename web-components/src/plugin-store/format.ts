/** Formatting helpers of the store browser (no DOM rendering here). */
import { initialOf, type CardIcon } from '../plugin-manager/card-icon.js';

/**
 * A count as people read it on a card: `999`, `1.2k`, `12k`, `3.4M`, `1.1B`. Truncated, not
 * rounded, so the shown figure is never more than the real one (999 999 is `999.9k`, not `1000k`).
 */
export function formatCount(value: number): string {
  if (!Number.isFinite(value) || value < 0) return '0';
  const units: ReadonlyArray<readonly [number, string]> = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, suffix] of units) {
    if (value >= size) {
      const scaled = value / size;
      const shown = scaled >= 100 ? Math.floor(scaled) : Math.floor(scaled * 10) / 10;
      return `${shown}${suffix}`;
    }
  }
  return String(Math.floor(value));
}

/** A file size: `512 B`, `47.1 KB`, `3.2 MB`. */
export function formatBytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${(value / (1024 * 1024)).toFixed(1)} MB`;
}

/** An ISO date as a short local date (`Mar 5, 2030`), or the text itself when it is not a date. */
export function formatDate(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return new Date(time).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** Five star glyphs for an average from 0 to 5, rounded to whole stars: `★★★★☆`. */
export function ratingStars(average: number): string {
  const full = Math.min(5, Math.max(0, Math.round(average)));
  return '★'.repeat(full) + '☆'.repeat(5 - full);
}

/** The rating as a sentence, for screen readers. */
export function ratingLabel(average: number | undefined, count: number): string {
  if (average === undefined || count === 0) return 'Not rated yet';
  const shown = Number(average.toFixed(2));
  return `Rated ${shown} out of 5 from ${count} ${count === 1 ? 'rating' : 'ratings'}`;
}

/**
 * A store card's icon: the registry's `iconUrl` when it is an `https:` URL or on the page's own
 * origin, else the name's initial (the plugin manager's card-icon rule). Any other scheme
 * (`http:` elsewhere, `javascript:`, `data:`) is never loaded.
 */
export function storeIcon(iconUrl: string | undefined, name: string, pageOrigin: string): CardIcon {
  const initial: CardIcon = { kind: 'initial', text: initialOf(name) };
  if (!iconUrl) return initial;
  let url: URL;
  try {
    url = new URL(iconUrl, pageOrigin);
  } catch {
    return initial;
  }
  if (url.protocol === 'https:' || (pageOrigin !== 'null' && url.origin === pageOrigin && /^https?:$/.test(url.protocol))) {
    return { kind: 'image', src: url.href };
  }
  return initial;
}
