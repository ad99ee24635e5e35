import { relative, resolve } from 'node:path';
import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { packPlugin } from '../pack/pack-plugin.js';
import { startProgress } from '../terminal/progress.js';

const HELP = `Usage: pluginctl pack [--out-dir d] [--version v] [--key k] [--skip-build] [--json]

Builds the plugin in this folder and writes a deterministic <id>-<version>.plugpkg: entries
sorted, fixed timestamps and modes, so the same files give the same bytes. Files matched by
.plugignore, and node_modules/, .git/ and release/, stay out. A package a launcher would refuse
(unsafe paths, missing entry files, root settings.json or cache.json, manifest problems) is not
written.

Build: "npm run build" when package.json has a build script; "sh build.sh" for a wasm project
(layer l3) that has one; nothing for a static project.

Options:
  --out-dir d   Folder for the package (default: release/)
  --version v   Version written into the packed manifest.json (the project's file is unchanged)
  --key k       Sign: adds signature.json. A PKCS#8 PEM file or the base64 of a 32-byte seed.
                The store's certificate is added by pluginctl publish.
  --skip-build  Pack the files as they are
  --json        Print the result as one JSON document
  -h, --help    Show this help
`;

/** `pluginctl pack [--out-dir d] [--version v] [--key k] [--skip-build] [--json]` */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { valued: ['out-dir', 'version', 'key'], flags: ['skip-build', 'json'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run pluginctl pack --help.`);
  const root = process.cwd();
  let progress = startProgress('Packing');
  let result: Awaited<ReturnType<typeof packPlugin>>;
  try {
    result = await packPlugin({
      root,
      ...(typeof options['out-dir'] === 'string' ? { outDir: resolve(options['out-dir']) } : {}),
      ...(typeof options.version === 'string' ? { version: options.version } : {}),
      ...(typeof options.key === 'string' ? { key: options.key } : {}),
      skipBuild: options['skip-build'] === true,
      onBuild: (plan) => {
        // The build prints to stderr itself: the spinner stops so it cannot garble those lines,
        // and starts again for the packing after it.
        progress.done();
        if (process.stderr.isTTY) process.stderr.write(`Building: ${plan.command} ${plan.args.join(' ')}\n`);
        progress = startProgress('Packing');
      },
    });
  } catch (error) {
    progress.done();
    throw error;
  }
  progress.done();
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ ok: true, ...result }, null, 2)}\n`);
    return 0;
  }
  const shown = relative(root, result.path) || result.path;
  const lines = [
    `✔ Packed ${result.id} ${result.version}: ${shown}`,
    `  ${result.files} files, ${result.bytes} bytes, sha256 ${result.sha256}`,
    result.build === 'skipped' ? '  build: skipped (--skip-build)' : result.build === 'none' ? '  build: none (static project)' : `  build: ${result.build}`,
    result.signerKeyId === null
      ? '  unsigned (pass --key to add signature.json; pluginctl publish signs and certifies)'
      : `  signed: signature.json by key ${result.signerKeyId} (the store adds signature.cert.json when you publish)`,
    ...result.skippedLinks.map((link) => `  warning: symbolic link ${link} left out`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
