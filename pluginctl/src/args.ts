import { CliError } from './cli-error.js';

/** Parsed command line: positional words and `--flag value` / `--flag` options. */
export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | true>;
}

/**
 * Parses `argv` against the options a command declares: names in `valued` take a value (`--key k`
 * or `--key=k`), names in `flags` do not, and `short` maps one-letter forms to long names
 * (`{t: 'template'}` makes `-t react` mean `--template react`). Unknown options are errors, so a
 * typo never goes unseen.
 */
export function parseArgs(
  rawArgv: readonly string[],
  spec: { valued?: readonly string[]; flags?: readonly string[]; short?: Readonly<Record<string, string>> },
): ParsedArgs {
  const short = spec.short ?? {};
  const argv = rawArgv.map((word) => (/^-[a-zA-Z]$/.test(word) && Object.hasOwn(short, word.slice(1)) ? `--${short[word.slice(1)]}` : word));
  const valued = new Set(spec.valued ?? []);
  const flags = new Set(spec.flags ?? []);
  const positionals: string[] = [];
  const options: Record<string, string | true> = Object.create(null) as Record<string, string | true>;
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? '';
    if (word === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!word.startsWith('--')) {
      positionals.push(word);
      continue;
    }
    const [name = '', inline] = word.slice(2).split(/=(.*)/s, 2);
    if (flags.has(name) && inline === undefined) {
      options[name] = true;
    } else if (valued.has(name)) {
      const value = inline ?? argv[index + 1];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) {
        throw new CliError('INVALID_ARGUMENT', `--${name} needs a value.`);
      }
      if (inline === undefined) index += 1;
      options[name] = value;
    } else {
      throw new CliError('INVALID_ARGUMENT', `Unknown option --${name}. Run \`pluginctl help\` for the options.`);
    }
  }
  return { positionals, options };
}
