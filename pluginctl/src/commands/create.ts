import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { findPluginIdProblem } from '@plughost/host-sdk/core';
import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { TEMPLATES, TEMPLATE_NAMES, isTemplateName, renderTemplate, type TemplateName } from '../templates/index.js';

/** Options of {@link createProject}. */
export interface CreateOptions {
  /** The plugin id (manifest `id`), checked against the core's plugin id rule. */
  id: string;
  /** The template (default `react`). */
  template?: TemplateName;
  /** The folder to create; default `./<id>` in the current folder. */
  directory?: string;
}

/** What {@link createProject} wrote. */
export interface CreateResult {
  id: string;
  template: TemplateName;
  directory: string;
  /** Relative paths, sorted. */
  files: string[];
  /** Commands to run next, in the new folder. */
  nextSteps: string[];
}

const HELP = `Usage: pluginctl create <id> [-t|--template react|html|lib|wasm] [--dir d]

Creates a plugin project in ./<id> (or --dir) from a template:
${TEMPLATE_NAMES.map((name) => `  ${name.padEnd(6)} ${TEMPLATES[name].summary}`).join('\n')}

Options:
  -t, --template t  The template (default: react)
  --dir d           The folder to create (default: ./<id>); it must be missing or empty
  --json            Print {id, template, directory, files, nextSteps} as JSON
  -h, --help        Show this help
`;

async function assertFreeFolder(directory: string): Promise<void> {
  const found = await stat(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!found) return;
  if (!found.isDirectory()) {
    throw new CliError('TARGET_EXISTS', `${directory} exists and is not a folder. Choose another id or --dir.`);
  }
  const entries = await readdir(directory);
  if (entries.length > 0) {
    throw new CliError(
      'TARGET_EXISTS',
      `${directory} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}); pluginctl create never writes over files. Choose another --dir or empty the folder.`,
    );
  }
}

/**
 * Writes a new plugin project from a template. Every check (the id, the template, a free target
 * folder) runs before anything is written; the files are written into a hidden sibling folder that
 * is then renamed into place, so a failure leaves no half-made project behind.
 *
 * @example
 * ```ts
 * await createProject({ id: 'com.example.hello', template: 'html' }); // ./com.example.hello
 * ```
 */
export async function createProject(options: CreateOptions): Promise<CreateResult> {
  const problem = findPluginIdProblem(options.id);
  if (problem) throw new CliError('INVALID_ARGUMENT', `The plugin id ${problem}. Example: pluginctl create com.example.my-plugin.`);
  const template = options.template ?? 'react';
  const directory = resolve(options.directory ?? options.id);
  await assertFreeFolder(directory);
  const files = renderTemplate(TEMPLATES[template], options.id);
  const staging = join(dirname(directory), `.${basename(directory)}.pluginctl-${randomBytes(6).toString('hex')}`);
  await mkdir(dirname(directory), { recursive: true });
  try {
    for (const [path, text] of files) {
      const target = join(staging, ...path.split('/'));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, text, { flag: 'wx' });
    }
    // The target was checked above; re-check just before the swap, since another process may have
    // written there meanwhile. An empty folder is replaced (rmdir fails if it stopped being empty).
    await assertFreeFolder(directory);
    await rmdir(directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(staging, directory);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return {
    id: options.id,
    template,
    directory,
    files: [...files.keys()].sort(),
    nextSteps: [...TEMPLATES[template].nextSteps],
  };
}

/** `pluginctl create <id> [-t|--template react|html|lib|wasm] [--dir d] [--json]` */
export async function run(argv: readonly string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, {
    valued: ['template', 'dir'],
    flags: ['json', 'help'],
    short: { t: 'template', h: 'help' },
  });
  if (options.help === true) {
    process.stdout.write(HELP);
    return 0;
  }
  const [id, extra] = positionals;
  if (id === undefined) throw new CliError('INVALID_ARGUMENT', 'Name the plugin: pluginctl create <id>, such as pluginctl create com.example.my-plugin.');
  if (id.startsWith('-')) throw new CliError('INVALID_ARGUMENT', `Unknown option ${id}. Run \`pluginctl create --help\` for the options.`);
  if (extra !== undefined) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${extra}". Run \`pluginctl create --help\`.`);
  const template = options.template === undefined ? 'react' : String(options.template);
  if (!isTemplateName(template)) {
    throw new CliError('INVALID_ARGUMENT', `Unknown template "${template}": use one of ${TEMPLATE_NAMES.join(', ')}.`);
  }
  const result = await createProject({ id, template, ...(typeof options.dir === 'string' && { directory: options.dir }) });
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const where = relative(process.cwd(), result.directory) || '.';
  process.stdout.write(
    [
      `Created ${result.id} (${result.template} template) in ${where}: ${result.files.length} files.`,
      '',
      'Next:',
      `  cd ${where}`,
      ...result.nextSteps.map((step) => `  ${step}`),
      '',
    ].join('\n'),
  );
  return 0;
}
