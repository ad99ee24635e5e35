/**
 * `.plugignore`: which project files stay out of a package, in `.gitignore` syntax (the subset
 * authors use): `#` comments, `!` to take a file back, a trailing `/` for folders only, a `/`
 * inside or at the start to anchor at the project root, `*`, `?` and `**`.
 */

/** Always left out, whatever `.plugignore` says (decisions 10). */
export const ALWAYS_IGNORED = ['node_modules/', '.git/', 'release/'] as const;

interface Rule {
  readonly negate: boolean;
  readonly folderOnly: boolean;
  readonly pattern: RegExp;
}

function globToRegExp(glob: string, anchored: boolean): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index] ?? '';
    if (char === '*') {
      if (glob[index + 1] === '*') {
        // `**/` matches any number of folders, a final `**` everything below.
        const slash = glob[index + 2] === '/';
        source += slash ? '(?:.*/)?' : '.*';
        index += slash ? 2 : 1;
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${source}$`);
}

function parseRule(line: string): Rule | null {
  let text = line.replace(/\r$/, '');
  if (text.trim() === '' || text.startsWith('#')) return null;
  text = text.replace(/(?<!\\)\s+$/, '');
  const negate = text.startsWith('!');
  if (negate) text = text.slice(1);
  const folderOnly = text.endsWith('/');
  if (folderOnly) text = text.slice(0, -1);
  // A slash anywhere but at the end anchors the pattern at the root, as in git.
  const anchored = text.includes('/');
  if (text.startsWith('/')) text = text.slice(1);
  if (text === '') return null;
  return { negate, folderOnly, pattern: globToRegExp(text, anchored) };
}

/** A compiled ignore list. */
export class IgnoreList {
  private readonly rules: readonly Rule[];

  constructor(text: string) {
    this.rules = [...ALWAYS_IGNORED, ...text.split('\n')].map(parseRule).filter((rule): rule is Rule => rule !== null);
  }

  /**
   * True when `path` (relative, forward slashes) is ignored. `isFolder` tells folders from files;
   * as in git, a file inside an ignored folder cannot be taken back by a later `!` rule, so callers
   * skip ignored folders without descending.
   */
  ignores(path: string, isFolder: boolean): boolean {
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.folderOnly && !isFolder) continue;
      if (rule.pattern.test(path)) ignored = !rule.negate;
    }
    // The three fixed folders stay out even if a `!` rule names them.
    return ignored || ALWAYS_IGNORED.some((folder) => isFolder && `${path}/` === folder);
  }
}
