import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openPluginPackage, type OpenedPluginPackage } from '@plughost/backend-kit';
import { describeCapabilities, formatManifestProblem, keyIdOf, decodePublicKey } from '@plughost/host-sdk/core';
import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { chooseRootKey, type RootKeySource } from '../trusted-root.js';

/** Options of {@link verifyPackage}. */
export interface VerifyPackageOptions {
  packagePath: string;
  rootPublicKey: string;
  rootKeySource: RootKeySource;
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
  signature: { status: 'valid'; keyId: string; developerId?: string; rootKeyId: string; rootKeySource: RootKeySource } | { status: 'unsigned'; notice: string };
}

function reportOf(opened: OpenedPluginPackage, options: VerifyPackageOptions): VerifyReport {
  const { capabilities, highestRisk } = describeCapabilities(opened.manifest);
  const rootKeyId = keyIdOf(decodePublicKey(options.rootPublicKey, 'root public key'));
  const signature: VerifyReport['signature'] =
    opened.signature.status === 'valid'
      ? {
          status: 'valid',
          keyId: opened.signature.signer.keyId,
          ...(opened.signature.signer.developerId ? { developerId: opened.signature.signer.developerId } : {}),
          rootKeyId,
          rootKeySource: options.rootKeySource,
        }
      : {
          status: 'unsigned',
          notice: 'The package is not signed. Launchers refuse unsigned packages uploaded by users; publish it through a store to have it signed.',
        };
  return {
    ok: true,
    package: options.packagePath,
    manifest: { id: opened.manifest.id, name: opened.manifest.name, version: opened.manifest.version },
    files: opened.files.length,
    warnings: opened.warnings.map(formatManifestProblem),
    permissions: capabilities.map((c) => ({ id: c.id, risk: c.risk })),
    highestRisk,
    signature,
  };
}

/**
 * Checks a package file the way a launcher would before installing it: archive safety and limits,
 * the manifest against the files in the archive, and the signature against the root key. An
 * unsigned package passes with a notice; anything else wrong throws a `PluginHostError`.
 */
export async function verifyPackage(options: VerifyPackageOptions): Promise<VerifyReport> {
  const found = await stat(options.packagePath).catch(() => null);
  if (!found?.isFile()) throw new CliError('FILE_NOT_FOUND', `No package file at ${options.packagePath}.`);
  const work = await mkdtemp(join(tmpdir(), 'pluginctl-verify-'));
  try {
    const opened = await openPluginPackage(options.packagePath, {
      workDirectory: work,
      signaturePolicy: 'if-present',
      trust: { rootPublicKey: options.rootPublicKey },
    });
    try {
      return reportOf(opened, options);
    } finally {
      await opened.dispose();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function printReport(report: VerifyReport): void {
  const lines = [
    `✔ Archive: ${report.files} files, safe paths, within limits`,
    `✔ Manifest: ${report.manifest.id} ${report.manifest.version} (${report.manifest.name})`,
    ...report.warnings.map((w) => `  warning: ${w}`),
    report.signature.status === 'valid'
      ? `✔ Signature: valid, key ${report.signature.keyId}${report.signature.developerId ? ` (developer ${report.signature.developerId})` : ''}, certified by root ${report.signature.rootKeyId} (${report.signature.rootKeySource})`
      : `! Signature: ${report.signature.notice}`,
    `  Permissions (highest risk: ${report.highestRisk}):${report.permissions.length === 0 ? ' none' : ''}`,
    ...report.permissions.map((p) => `    ${p.risk.padEnd(7)} ${p.id}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `pluginctl verify --package <file> [--root-key <base64>] [--json]` */
export async function run(argv: readonly string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { valued: ['package', 'root-key'], flags: ['json'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}".`);
  if (typeof options.package !== 'string') {
    throw new CliError('INVALID_ARGUMENT', 'Name the package to check: pluginctl verify --package <file>.');
  }
  const root = chooseRootKey(typeof options['root-key'] === 'string' ? options['root-key'] : undefined, process.env);
  const report = await verifyPackage({
    packagePath: resolve(options.package),
    rootPublicKey: root.key,
    rootKeySource: root.source,
  });
  if (options.json === true) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printReport(report);
  return 0;
}
