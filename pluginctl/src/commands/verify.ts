import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type OpenedPluginPackage, openPluginPackage } from '@plughost/backend-kit';
import { describeCapabilities, formatManifestProblem, isPluginHostError, PluginHostError } from '@plughost/host-sdk/core';
import { parseArgs } from '../args.js';
import { checkFolder } from '../checks/folder-check.js';
import { printFolderReport } from '../checks/print-report.js';
import { CliError } from '../cli-error.js';
import { resolveStoreApi } from '../store/store-api.js';
import { fetchRevokedKeyIds, type RevocationCheck, resolveTrustedRoot, type TrustedRoot } from '../trusted-root.js';

const HELP = `Usage: pluginctl verify [--package <file>] [--root-key <base64>] [--dev-root] [--api url] [--json]

Without --package: checks the plugin project in this folder: manifest.json, permission
minimality (a permission declared and not used, or a bridge method called without its
permission, is an error with file and line) and unbounded loops (heuristic).

With --package: checks a package as a launcher would: archive safety and limits, the manifest
against the archive's files, and the signature against the trusted root; the key is checked
against the store's revocation list when the store can be reached. An unsigned package gets a
notice, not a rejection.

Trusted root: --root-key, else PLUGINCTL_ROOT_PUBLIC_KEY, else the rootPublicKey the store
(--api, PLUGINCTL_STORE_API) publishes, pinned per store in $XDG_CONFIG_HOME/pluginctl/roots.json
and refused when it changes. --dev-root trusts the repository's development root instead.

Options:
  --package f     The package to check
  --root-key k    Trust this root public key (base64)
  --dev-root      Trust the development root (every verdict then says so)
  --api url       Store API base (default: PLUGINCTL_STORE_API)
  --json          Print the result as one JSON document
  -h, --help      Show this help
`;

const UNSIGNED_NOTICE = 'The package is not signed. Launchers refuse unsigned packages uploaded by users; publish it through a store to have it signed.';

/** Options of {@link verifyPackage}. */
export interface VerifyPackageOptions {
  packagePath: string;
  root: TrustedRoot;
  /** Key ids the store revoked, when its list was fetched. */
  revocation?: RevocationCheck;
}

/** The machine-readable result of `pluginctl verify --package --json`. */
export interface VerifyReport {
  ok: true;
  package: string;
  manifest: { id: string; name: string; version: string };
  files: number;
  warnings: string[];
  permissions: { id: string; risk: string }[];
  highestRisk: string;
  root: { keyId: string; source: TrustedRoot['source']; store?: string };
  revocation: 'checked' | 'store unreachable' | 'not checked';
  signature: { status: 'valid'; keyId: string; developerId?: string } | { status: 'unsigned'; notice: string };
}

function reportOf(opened: OpenedPluginPackage, options: VerifyPackageOptions): VerifyReport {
  const { capabilities, highestRisk } = describeCapabilities(opened.manifest);
  return {
    ok: true,
    package: options.packagePath,
    manifest: { id: opened.manifest.id, name: opened.manifest.name, version: opened.manifest.version },
    files: opened.files.length,
    warnings: opened.warnings.map(formatManifestProblem),
    permissions: capabilities.map((c) => ({ id: c.id, risk: c.risk })),
    highestRisk,
    root: { keyId: options.root.keyId, source: options.root.source, ...(options.root.store ? { store: options.root.store } : {}) },
    revocation: options.revocation?.status === 'checked' ? 'checked' : options.revocation?.status === 'unreachable' ? 'store unreachable' : 'not checked',
    signature:
      opened.signature.status === 'valid'
        ? {
            status: 'valid',
            keyId: opened.signature.signer.keyId,
            ...(opened.signature.signer.developerId ? { developerId: opened.signature.signer.developerId } : {}),
          }
        : { status: 'unsigned', notice: UNSIGNED_NOTICE },
  };
}

/**
 * Checks a package file the way a launcher would before installing it: archive safety and limits,
 * the manifest against the files in the archive, and the signature against the root (and the
 * revocation list when given). An unsigned package passes with a notice; anything else wrong
 * throws a `PluginHostError`, whose message names the development root when that was trusted.
 */
export async function verifyPackage(options: VerifyPackageOptions): Promise<VerifyReport> {
  const found = await stat(options.packagePath).catch(() => null);
  if (!found?.isFile()) throw new CliError('FILE_NOT_FOUND', `No package file at ${options.packagePath}. Check the path given to --package.`);
  const work = await mkdtemp(join(tmpdir(), 'pluginctl-verify-'));
  try {
    const revoked = options.revocation?.status === 'checked' ? options.revocation.revokedKeyIds : undefined;
    const opened = await openPluginPackage(options.packagePath, {
      workDirectory: work,
      signaturePolicy: 'if-present',
      trust: { rootPublicKey: options.root.key, ...(revoked ? { revokedKeyIds: revoked } : {}) },
    });
    try {
      return reportOf(opened, options);
    } finally {
      await opened.dispose();
    }
  } catch (error) {
    if (options.root.source === 'development root' && isPluginHostError(error)) {
      throw new PluginHostError(error.code, `${error.message} (checked against the development root)`);
    }
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function rootText(root: VerifyReport['root']): string {
  if (root.source === 'development root') return `${root.keyId}, the development root: for development packages only`;
  if (root.source === 'store') return `${root.keyId}, published by ${root.store ?? 'the store'}`;
  return `${root.keyId}, from ${root.source === 'option' ? '--root-key' : 'PLUGINCTL_ROOT_PUBLIC_KEY'}`;
}

function printReport(report: VerifyReport): void {
  const dev = report.root.source === 'development root' ? ' [development root]' : '';
  const lines = [
    `✔ Archive: ${report.files} files, safe paths, within limits${dev}`,
    `✔ Manifest: ${report.manifest.id} ${report.manifest.version} (${report.manifest.name})${dev}`,
    ...report.warnings.map((w) => `  warning: ${w}`),
    report.signature.status === 'valid'
      ? `✔ Signature: valid, key ${report.signature.keyId}${report.signature.developerId ? ` (developer ${report.signature.developerId})` : ''}, certified by root ${rootText(report.root)}`
      : `! Signature: ${report.signature.notice}${dev}`,
    report.revocation === 'checked'
      ? `✔ Revocation: the key is not on the store's revocation list${dev}`
      : report.revocation === 'store unreachable'
        ? '! Revocation: the store could not be reached; the revocation list was not checked'
        : dev
          ? '  Revocation: not checked [development root: no store list applies]'
          : '  Revocation: not checked (no store named)',
    `  Permissions (highest risk: ${report.highestRisk}):${report.permissions.length === 0 ? ' none' : ''}`,
    ...report.permissions.map((p) => `    ${p.risk.padEnd(7)} ${p.id}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function revocationFor(root: TrustedRoot, storeApi: string | undefined): Promise<RevocationCheck | undefined> {
  if (storeApi === undefined) return undefined;
  const check = await fetchRevokedKeyIds(storeApi, root.key);
  if (check.status === 'invalid') {
    throw new CliError(
      'REVOCATION_LIST_INVALID',
      `The revocation list of ${storeApi} does not verify against root ${root.keyId}: ${check.reason}. The store or its root is not the one you trust; check --api.`,
    );
  }
  return check;
}

/** `pluginctl verify [--package <file>] [--root-key <base64>] [--dev-root] [--api url] [--json]` */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { valued: ['package', 'root-key', 'api'], flags: ['json', 'dev-root'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run pluginctl verify --help.`);
  const json = options.json === true;

  if (typeof options.package !== 'string') {
    const report = await checkFolder(process.cwd(), { lint: false });
    if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else printFolderReport(report, 'verify');
    return report.ok ? 0 : 1;
  }

  const storeApi = resolveStoreApi(typeof options.api === 'string' ? options.api : undefined, process.env);
  const root = await resolveTrustedRoot({
    option: typeof options['root-key'] === 'string' ? options['root-key'] : undefined,
    devRoot: options['dev-root'] === true,
    storeApi,
    env: process.env,
  });
  if (root.pinnedNow === true && !json) {
    process.stderr.write(`Pinned root ${root.keyId} for ${root.store}; pluginctl refuses to go on if this store's root ever changes.\n`);
  }
  // The development root belongs to no store: its packages are checked against no store's list.
  const revocation = root.source === 'development root' ? undefined : await revocationFor(root, storeApi);
  const report = await verifyPackage({ packagePath: resolve(options.package), root, ...(revocation ? { revocation } : {}) });
  if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printReport(report);
  return 0;
}
