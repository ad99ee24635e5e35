/**
 * A small, exact copy of the parts of node-semver (7.x, non-loose) that manifests use: parsing and
 * ordering versions, and reading and testing ranges (exact versions, comparators, `^`, `~`,
 * x-ranges, hyphen ranges, `||`), with node-semver's default options or with `includePrerelease`. It exists so that browser bundles do
 * not carry the semver package (about 20 KB minified, 17 % of the host); the desugaring below
 * follows node-semver's `classes/range.js` step by step, with its regular expressions (their
 * length-bounded "safe" forms), so that both read every range the same way.
 * `tests/unit/core/semver-range.test.ts` compares the two on many generated versions and ranges.
 */

/** A parsed version, as node-semver's `SemVer` holds it. */
export interface SemverVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Numeric identifiers below `Number.MAX_SAFE_INTEGER` are numbers, the others strings. */
  readonly prerelease: readonly (string | number)[];
  /** `major.minor.patch[-prerelease]`, without build metadata. */
  readonly version: string;
}

// node-semver's regular expression sources (internal/re.js), strict forms, in their safe variant
// (`\s*` becomes `\s{0,1}`, `\s+` `\s{1,1}`, digits and identifiers bounded by the length limit).
const S0 = '\\s{0,1}';
const S1 = '\\s{1,1}';
const NUM = '0|[1-9]\\d{0,256}';
const NUM_LOOSE = '\\d{1,256}';
const NON_NUM = '\\d{0,256}[a-zA-Z-][a-zA-Z0-9-]{0,250}';
const PRE_ID = `(?:${NON_NUM}|${NUM})`;
const PRE_ID_LOOSE = `(?:${NON_NUM}|${NUM_LOOSE})`;
const PRERELEASE = `(?:-(${PRE_ID}(?:\\.${PRE_ID})*))`;
const PRERELEASE_LOOSE = `(?:-?(${PRE_ID_LOOSE}(?:\\.${PRE_ID_LOOSE})*))`;
const BUILD_ID = '[a-zA-Z0-9-]{1,250}';
const BUILD = `(?:\\+(${BUILD_ID}(?:\\.${BUILD_ID})*))`;
const FULL_PLAIN = `v?(${NUM})\\.(${NUM})\\.(${NUM})${PRERELEASE}?${BUILD}?`;
const LOOSE_PLAIN = `[v=\\s]*(${NUM_LOOSE})\\.(${NUM_LOOSE})\\.(${NUM_LOOSE})${PRERELEASE_LOOSE}?${BUILD}?`;
const GTLT = '((?:<|>)?=?)';
const XID = `${NUM}|x|X|\\*`;
const X_PLAIN = `[v=\\s]*(${XID})(?:\\.(${XID})(?:\\.(${XID})(?:${PRERELEASE})?${BUILD}?)?)?`;

const FULL = new RegExp(`^${FULL_PLAIN}$`);
const BUILD_GLOBAL = new RegExp(BUILD, 'g');
const HYPHEN_RANGE = new RegExp(`^${S0}(${X_PLAIN})${S1}-${S1}(${X_PLAIN})${S0}$`);
const COMPARATOR_TRIM = new RegExp(`(${S0})${GTLT}${S0}(${LOOSE_PLAIN}|${X_PLAIN})`, 'g');
const TILDE_TRIM = new RegExp(`(${S0})(?:~>?)${S1}`, 'g');
const CARET_TRIM = new RegExp(`(${S0})(?:\\^)${S1}`, 'g');
const TILDE = new RegExp(`^(?:~>?)${X_PLAIN}$`);
const CARET = new RegExp(`^(?:\\^)${X_PLAIN}$`);
const X_RANGE = new RegExp(`^${GTLT}${S0}${X_PLAIN}$`);
const STAR = new RegExp(`(<|>)?=?${S0}\\*`);
const GTE0 = new RegExp(`^${S0}>=${S0}0\\.0\\.0${S0}$`);
const GTE0_PRE = new RegExp(`^${S0}>=${S0}0\\.0\\.0-0${S0}$`);
const BUILD_ONCE = new RegExp(BUILD);
const COMPARATOR = new RegExp(`^${GTLT}${S0}(${FULL_PLAIN})$|^$`);

const NUMERIC = /^[0-9]+$/;
const WHITESPACE = /\s+/;

/**
 * Parses a version the way node-semver's `parse` does (non-loose): surrounding whitespace and one
 * leading `v` are accepted, numbers must be safe integers, at most 256 characters.
 */
export function parseSemver(text: string): SemverVersion | null {
  if (text.length > 256) return null;
  const match = FULL.exec(text.trim());
  if (!match) return null;
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  if (major > Number.MAX_SAFE_INTEGER || minor > Number.MAX_SAFE_INTEGER || patch > Number.MAX_SAFE_INTEGER) return null;
  const prerelease = match[4] ? match[4].split('.').map((id) => (NUMERIC.test(id) && +id < Number.MAX_SAFE_INTEGER ? +id : id)) : [];
  const version = `${major}.${minor}.${patch}${prerelease.length > 0 ? `-${prerelease.join('.')}` : ''}`;
  return { major, minor, patch, prerelease, version };
}

// node-semver's compareIdentifiers, including its handling of huge numeric identifiers.
function compareIdentifiers(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  const aNumeric = NUMERIC.test(String(a));
  const bNumeric = NUMERIC.test(String(b));
  if (aNumeric && bNumeric) {
    a = +a;
    b = +b;
  }
  if (a === b) return 0;
  if (aNumeric && !bNumeric) return -1;
  if (bNumeric && !aNumeric) return 1;
  return a < b ? -1 : 1;
}

/** Orders two parsed versions by semver precedence (build metadata ignored): -1, 0 or 1. */
export function compareSemver(a: SemverVersion, b: SemverVersion): number {
  if (a.version === b.version) return 0;
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  // A version without a pre-release is newer than one with.
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return Math.sign(b.prerelease.length - a.prerelease.length);
  for (let i = 0; ; i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined && y === undefined) return 0;
    if (y === undefined) return 1;
    if (x === undefined) return -1;
    if (x !== y) return compareIdentifiers(x, y);
  }
}

/** One comparator: an operator (`''` means equal) and a version, or `null` for "any version". */
interface Comparator {
  readonly operator: string;
  readonly semver: SemverVersion | null;
}

const isX = (id: string | undefined): boolean => !id || id.toLowerCase() === 'x' || id === '*';

/**
 * With `includePrerelease`, lower bounds start at the lowest pre-release (`-0`), so `1.2.x` admits
 * `1.2.0-beta`; `z` is that suffix, or `''` with the default options.
 */
type Suffix = '' | '-0';

// `1.2 - 3.4.5` => `>=1.2.0 <=3.4.5`
function hyphenReplace(z: Suffix) {
  return (...groups: (string | number | undefined)[]): string => {
    const [, from, fM, fm, fp, fpr, , to, tM, tm, tp, tpr] = groups as (string | undefined)[];
    let low: string;
    if (isX(fM)) low = '';
    else if (isX(fm)) low = `>=${fM}.0.0${z}`;
    else if (isX(fp)) low = `>=${fM}.${fm}.0${z}`;
    else if (fpr) low = `>=${from}`;
    else low = `>=${from}${z}`;
    let high: string;
    if (isX(tM)) high = '';
    else if (isX(tm)) high = `<${Number(tM) + 1}.0.0-0`;
    else if (isX(tp)) high = `<${tM}.${Number(tm) + 1}.0-0`;
    else if (tpr) high = `<=${tM}.${tm}.${tp}-${tpr}`;
    else if (z) high = `<${tM}.${tm}.${Number(tp) + 1}-0`;
    else high = `<=${to}`;
    return `${low} ${high}`.trim();
  };
}

// `~1.2` => `>=1.2.0 <1.3.0-0`, `^0.2.3` => `>=0.2.3 <0.3.0-0`: one rewrite for both, as their
// lower bounds agree and their upper bounds differ only where the major version is above zero.
function replaceTildeOrCaret(comp: string, z: Suffix, caret: boolean): string {
  return comp.replace(caret ? CARET : TILDE, (_, M: string, m?: string, p?: string, pr?: string) => {
    if (isX(M)) return '';
    const nextMajor = `<${+M + 1}.0.0-0`;
    if (isX(m)) return `>=${M}.0.0${z} ${nextMajor}`;
    // A caret keeps the major version when it is above zero; a tilde always keeps the minor.
    const high = caret && M !== '0' ? nextMajor : `<${M}.${Number(m) + 1}.0-0`;
    if (isX(p)) return `>=${M}.${m}.0${z} ${high}`;
    // `^0.0.3` keeps the patch too.
    return `>=${M}.${m}.${p}${pr ? `-${pr}` : ''} ${caret && M === '0' && m === '0' ? `<${M}.${m}.${Number(p) + 1}-0` : high}`;
  });
}

// `>1.2` => `>=1.3.0`, `1.x` => `>=1.0.0 <2.0.0-0`
function replaceXRange(comp: string, z: Suffix): string {
  comp = comp.trim();
  return comp.replace(X_RANGE, (whole, gtlt: string, M: string, m?: string, p?: string) => {
    if ((isX(M) && !isX(m)) || (isX(m) && p && !isX(p))) return comp;
    const xM = isX(M);
    const xm = xM || isX(m);
    const anyX = xm || isX(p);
    if (gtlt === '=' && anyX) gtlt = '';
    if (xM) return gtlt === '>' || gtlt === '<' ? '<0.0.0-0' : '*';
    if (gtlt && anyX) {
      let major = +M;
      let minor = xm ? 0 : Number(m);
      if (gtlt === '>') {
        gtlt = '>=';
        if (xm) major += 1;
        else minor += 1;
      } else if (gtlt === '<=') {
        gtlt = '<';
        if (xm) major += 1;
        else minor += 1;
      }
      return `${gtlt}${major}.${minor}.0${gtlt === '<' ? '-0' : z}`;
    }
    if (xm) return `>=${M}.0.0${z} <${+M + 1}.0.0-0`;
    if (anyX) return `>=${M}.${m}.0${z} <${M}.${Number(m) + 1}.0-0`;
    return whole;
  });
}

const eachWord = (comp: string, replace: (word: string) => string): string => comp.trim().split(WHITESPACE).map(replace).join(' ');

function parseComparator(text: string): Comparator | null {
  const match = COMPARATOR.exec(text.trim().split(WHITESPACE).join(' '));
  if (!match) return null;
  const operator = match[1] === '=' || match[1] === undefined ? '' : match[1];
  if (!match[2]) return { operator, semver: null };
  const semver = parseSemver(match[2]);
  return semver ? { operator, semver } : null;
}

function parseSet(part: string, z: Suffix): Comparator[] | null {
  let range = part.replace(BUILD_GLOBAL, '');
  range = range.replace(HYPHEN_RANGE, hyphenReplace(z));
  range = range.replace(COMPARATOR_TRIM, '$1$2$3');
  range = range.replace(TILDE_TRIM, '$1~');
  range = range.replace(CARET_TRIM, '$1^');
  const words = range
    .split(' ')
    .map((comp) => {
      comp = comp.replace(BUILD_ONCE, '');
      comp = eachWord(comp, (word) => replaceTildeOrCaret(word, z, true));
      comp = eachWord(comp, (word) => replaceTildeOrCaret(word, z, false));
      comp = comp
        .split(WHITESPACE)
        .map((word) => replaceXRange(word, z))
        .join(' ');
      return comp.trim().replace(STAR, '');
    })
    .join(' ')
    .split(WHITESPACE)
    .map((comp) => comp.trim().replace(z ? GTE0_PRE : GTE0, ''));
  const set: Comparator[] = [];
  for (const word of words) {
    const comparator = parseComparator(word);
    if (!comparator) return null;
    set.push(comparator);
  }
  return set;
}

/** A parsed range: any of its sets matches when all of that set's comparators do. */
export interface SemverRange {
  readonly sets: readonly (readonly Comparator[])[];
  readonly includePrerelease: boolean;
}

/**
 * Reads a range the way node-semver's `new Range(range, {includePrerelease})` does, or returns
 * `null` where it would throw (where node-semver's `validRange` gives `null`). The option changes
 * which ranges are valid too: `1.0.0 - =2.0.0` is valid only with it.
 */
export function parseSemverRange(range: string, { includePrerelease = false } = {}): SemverRange | null {
  const sets: Comparator[][] = [];
  for (const part of range.trim().replace(/\s+/g, ' ').split('||')) {
    const set = parseSet(part.trim(), includePrerelease ? '-0' : '');
    if (!set) return null;
    sets.push(set);
  }
  // As in node-semver, a set that accepts any version makes the whole range `*`, which matters for
  // pre-releases: without includePrerelease, `*` admits none, whatever the other sets say.
  if (sets.some((set) => set.every(({ semver }) => semver === null))) return { sets: [[{ operator: '', semver: null }]], includePrerelease };
  return { sets, includePrerelease };
}

function testComparator({ operator, semver }: Comparator, version: SemverVersion): boolean {
  if (!semver) return true;
  const order = compareSemver(version, semver);
  // `''` is equality; `>=` and `<=` also accept equality.
  return (operator.includes('>') && order > 0) || (operator.includes('<') && order < 0) || (operator !== '>' && operator !== '<' && order === 0);
}

/**
 * True when `version` is in `range` (node-semver's `Range.test`). Without `includePrerelease`, a
 * pre-release matches only when a comparator of the same set names a pre-release of the same
 * `major.minor.patch` (`1.2.3-beta.2` is in `>=1.2.3-beta.1`, `1.2.4-beta` is not).
 */
export function rangeIncludes(range: SemverRange, version: SemverVersion): boolean {
  return range.sets.some(
    (set) =>
      set.every((comparator) => testComparator(comparator, version)) &&
      (range.includePrerelease ||
        version.prerelease.length === 0 ||
        set.some(
          ({ semver }) =>
            semver !== null &&
            semver.prerelease.length > 0 &&
            semver.major === version.major &&
            semver.minor === version.minor &&
            semver.patch === version.patch,
        )),
  );
}
