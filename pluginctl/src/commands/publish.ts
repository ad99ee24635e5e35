import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { bytesToBase64, isPluginHostError, type Certificate } from '@plughost/host-sdk/core';
import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { packPlugin } from '../pack/pack-plugin.js';
import {
  apiKeyFromEnv,
  defaultDeviceFlowIo,
  deviceLogin,
  existingCredential,
  requireStoreApi,
  SessionStore,
  sessionFrom,
  storeCall,
  UPLOAD_TIMEOUT_MS,
  type StoreCredential,
} from '../store/index.js';
import { readPackageForSigning, writeSignedPackage, type PackageForSigning } from '../store/signed-package.js';
import { loadSigningKey } from '../store/signing-key.js';
import { withProgress } from '../terminal/progress.js';

const HELP = `Usage: pluginctl publish [--key k] [--slug s] [--changelog c] [--api url] [--org-id id]
                         [--package f] [--skip-build] [--yes]

Signs the plugin with your certified key and uploads it to the store. Signs in with
PLUGINCTL_API_KEY (CI mode), else the saved session (renewed when expired), else the device flow.

Options:
  --key k        Signing key: a file with a PKCS#8 PEM or base64 seed, or the seed (default: PLUGINCTL_SIGN_KEY)
  --slug s       Store slug when the plugin record is created (default: derived from the id)
  --changelog c  What changed in this version (at most 4,000 characters)
  --api url      Store API base (default: PLUGINCTL_STORE_API)
  --org-id id    Publish for an organisation (refused by stores without organisations)
  --package f    Publish this .plugpkg instead of packing the project folder
  --skip-build   Pack without running the build first
  --yes          Do not ask for confirmation
  -h, --help     Show this help

Writes release/<id>-<version>.signed.plugpkg and prints the review state and the store URL.
`;

/** The store's limit (registry: `changelog_too_long`), checked here before anything is uploaded. */
export const MAX_CHANGELOG_LENGTH = 4000;

function optionOf(options: Record<string, string | true>, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

/** The changelog as the store counts it (code points of the trimmed text). */
function checkChangelog(changelog: string | undefined): string {
  const text = (changelog ?? '').trim();
  const length = [...text].length;
  if (length > MAX_CHANGELOG_LENGTH) {
    throw new CliError('CHANGELOG_TOO_LONG', `The changelog has ${length} characters; the store takes at most ${MAX_CHANGELOG_LENGTH}. Shorten --changelog.`);
  }
  return text;
}

async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}

/**
 * Whether to go on: `--yes` and `PLUGINCTL_API_KEY` (CI mode) confirm at once; on a terminal the
 * user is asked; without one there is nobody to ask, so the upload is refused rather than assumed.
 */
async function confirmUpload(yes: boolean, summary: string): Promise<void> {
  if (yes || apiKeyFromEnv() !== undefined) return;
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) {
    throw new CliError('CONFIRMATION_REQUIRED', `No terminal to confirm "${summary}" on. Pass --yes to publish without asking.`);
  }
  if (!(await confirm(`${summary}?`))) throw new CliError('CANCELLED', 'Nothing was uploaded. Run pluginctl publish again when ready.');
}

async function signIn(base: string): Promise<StoreCredential> {
  const sessions = new SessionStore();
  const existing = await existingCredential(base, sessions);
  if (existing !== undefined) return existing;
  // Prompts go to stderr: stdout carries only the result.
  const tokens = await deviceLogin(
    base,
    defaultDeviceFlowIo((line) => process.stderr.write(`${line}\n`)),
  );
  const session = sessionFrom(tokens, new Date());
  await sessions.set(base, session);
  return { kind: 'session', token: session.accessToken, session };
}

async function packageToPublish(packageOption: string | undefined, skipBuild: boolean): Promise<string> {
  if (packageOption !== undefined) {
    const path = resolve(packageOption);
    if (!(await stat(path).catch(() => null))?.isFile())
      throw new CliError('FILE_NOT_FOUND', `No package file at ${path}. Run pluginctl pack first, or fix --package.`);
    return path;
  }
  // The unsigned package of the project folder; publish signs it with the certified key below.
  const packed = await withProgress(skipBuild ? 'Packing' : 'Building and packing', () => packPlugin({ root: process.cwd(), skipBuild }));
  return packed.path;
}

function slugOf(body: unknown): string | undefined {
  const slug = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).slug : undefined;
  return typeof slug === 'string' ? slug : undefined;
}

/** `pluginctl publish [--key k] [--slug s] [--changelog c] [--api url] [--org-id id] [--package f] [--skip-build] [--yes]` */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { valued: ['key', 'slug', 'changelog', 'api', 'org-id', 'package'], flags: ['skip-build', 'yes'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run pluginctl publish --help.`);
  // Everything that can be refused locally is refused before the store is contacted.
  const changelog = checkChangelog(optionOf(options, 'changelog'));
  const base = requireStoreApi(optionOf(options, 'api'), process.env);
  const key = await loadSigningKey(optionOf(options, 'key'), process.env);
  const packagePath = await packageToPublish(optionOf(options, 'package'), options['skip-build'] === true);
  let input: PackageForSigning;
  try {
    input = await readPackageForSigning(packagePath);
  } catch (error) {
    if (isPluginHostError(error))
      throw new CliError(error.code, `${relative(process.cwd(), packagePath)}: ${error.message}. Fix the project and run pluginctl pack again.`);
    throw error;
  }
  const { id, version, name } = input.manifest;
  await confirmUpload(options.yes === true, `Publish ${id} ${version} to ${base}`);

  const credential = await signIn(base);
  const token = credential.token;
  const step = <T>(text: string, task: () => Promise<T>): Promise<T> => withProgress(text, task);

  const certified = await step('Certifying the signing key', () =>
    storeCall(
      base,
      '/developer/keys',
      { json: { publicKey: bytesToBase64(key.publicKey) }, token },
      [200, 201],
      'Check the key, or sign in again (pluginctl login).',
    ),
  );
  const { keyId, certificate, revoked } = certified.body as { keyId: string; certificate: Certificate; revoked?: string[] };
  process.stderr.write(
    certified.status === 200
      ? `Key ${keyId}: reusing its certificate.\n`
      : `Key ${keyId}: certified now${revoked && revoked.length > 0 ? `; your previous key ${revoked.join(', ')} is revoked` : ''}.\n`,
  );

  const slugOption = optionOf(options, 'slug');
  const record = await step('Finding the plugin record', () =>
    storeCall(
      base,
      '/plugins',
      {
        json: {
          id,
          name,
          ...(slugOption !== undefined ? { slug: slugOption } : {}),
          ...(input.manifest.description !== undefined ? { description: input.manifest.description } : {}),
        },
        token,
      },
      [200, 201],
      'The plugin id or slug may belong to someone else: change the manifest id or --slug.',
    ),
  );
  if (record.status === 201) process.stderr.write(`Created the plugin record ${id}.\n`);

  const signedPath = resolve('release', `${id}-${version}.signed.plugpkg`);
  await mkdir(dirname(signedPath), { recursive: true });
  await step('Signing', () => writeSignedPackage(input, key, certificate, signedPath));

  const form = new FormData();
  form.append('package', new Blob([await readFile(signedPath)]), `${id}-${version}.plugpkg`);
  if (changelog !== '') form.append('changelog', changelog);
  const orgId = optionOf(options, 'org-id');
  if (orgId !== undefined) form.append('orgId', orgId);
  const uploaded = await step(`Uploading ${id} ${version}`, () =>
    storeCall(
      base,
      `/plugins/${encodeURIComponent(id)}/versions`,
      { form, token, timeoutMs: UPLOAD_TIMEOUT_MS },
      [201],
      'Fix what the store says and run pluginctl publish again.',
    ),
  );
  const status = (uploaded.body as Record<string, unknown> | undefined)?.status;
  const slug = slugOf(record.body) ?? slugOption ?? id;
  const state =
    status === 'published' ? 'published' : status === 'pending_review' ? 'pending_review (a reviewer approves it before it is listed)' : String(status);
  process.stdout.write(
    [
      `Published ${id} ${version}: ${state}`,
      `Signed package: ${relative(process.cwd(), signedPath) || signedPath}`,
      `Store: ${base}/plugins/${encodeURIComponent(slug)}`,
      '',
    ].join('\n'),
  );
  return 0;
}
