/**
 * Rewriting the URLs of a `srcset` (or `imagesrcset`) attribute, candidate by candidate.
 */
import type { UrlRewrite } from './plugin-url.js';

interface SrcsetCandidate {
  readonly url: string;
  /** Width or density descriptors as written, possibly empty. */
  readonly descriptors: string;
}

const WHITESPACE = /[\t\n\f\r ]/;

/**
 * Rewrites every candidate URL of a `srcset` value. A candidate whose URL must be removed
 * (`javascript:`) is dropped with its descriptors.
 */
export function rewriteSrcset(value: string, resolve: (reference: string) => UrlRewrite): string {
  const rewritten: string[] = [];
  for (const candidate of parseSrcset(value)) {
    const decision = resolve(candidate.url);
    if (decision.action === 'remove') continue;
    const url = decision.action === 'rewrite' ? decision.url : candidate.url;
    rewritten.push(candidate.descriptors === '' ? url : `${url} ${candidate.descriptors}`);
  }
  return rewritten.join(', ');
}

/**
 * Splits a `srcset` value the way the HTML standard's "parse a srcset attribute" does: a URL is a
 * run of non-whitespace (so `data:` URLs keep their commas), trailing commas end a candidate, and
 * commas inside parentheses of descriptors do not.
 */
function parseSrcset(value: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let position = 0;
  while (position < value.length) {
    while (position < value.length && (WHITESPACE.test(value.charAt(position)) || value[position] === ',')) position += 1;
    if (position >= value.length) break;
    const urlStart = position;
    while (position < value.length && !WHITESPACE.test(value.charAt(position))) position += 1;
    let url = value.slice(urlStart, position);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, () => '');
      if (url !== '') candidates.push({ url, descriptors: '' });
      continue;
    }
    const descriptorStart = position;
    let inParentheses = false;
    while (position < value.length) {
      const character = value.charAt(position);
      if (character === '(') inParentheses = true;
      else if (character === ')') inParentheses = false;
      else if (character === ',' && !inParentheses) break;
      position += 1;
    }
    candidates.push({ url, descriptors: value.slice(descriptorStart, position).trim() });
    position += 1; // past the comma
  }
  return candidates;
}
