import { verifyPackageSignature, type PackageSigner, type PluginManifest, type SignatureCheck } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { PackageLimits } from '../../package/limits.js';
import { openPluginPackage } from '../../package/open-plugin-package.js';
import { readInstalledManifest } from '../installed-manifest.js';
import { permissionsOf, type PermissionSummary } from './plugin-info.js';

/** What the install dialog shows before "Install" (`POST /api/plugins/inspect`). */
export interface PackageInspection {
  readonly manifest: PluginManifest;
  /** Highest risk first; `render:inline` is listed as danger. */
  readonly permissions: readonly PermissionSummary[];
  /** The verified signer, or `null` when the package is unsigned or its signature is invalid. */
  readonly signer: PackageSigner | null;
  readonly signatureStatus: 'valid' | 'unsigned' | 'invalid';
  /** Why the signature is invalid (only with `signatureStatus: 'invalid'`). */
  readonly signatureProblem?: { readonly check: SignatureCheck; readonly reason: string };
  /** The version of this plugin installed now, or `null`: an upload would overwrite it. */
  readonly installedVersion: string | null;
}

/** What {@link inspectPackage} reads with: the work folder, the trusted root key and the package limits. */
export interface InspectDependencies {
  readonly paths: DataPaths;
  readonly rootPublicKey: string | Uint8Array;
  readonly packageLimits?: Partial<PackageLimits> | undefined;
}

/**
 * Reads a package the way an upload would (same archive and manifest checks, which throw) but
 * installs nothing and reports the signature instead of refusing it, so the dialog can explain
 * (a developer key on the store's revocation list included).
 */
export async function inspectPackage(context: InspectDependencies, archivePath: string, revokedKeyIds: ReadonlySet<string>): Promise<PackageInspection> {
  const opened = await openPluginPackage(archivePath, {
    workDirectory: context.paths.temporary,
    signaturePolicy: 'ignore',
    ...(context.packageLimits ? { limits: context.packageLimits } : {}),
  });
  try {
    // A revoked signer shows as an invalid signature with its reason, as the install would refuse it.
    const result = verifyPackageSignature(opened, { rootPublicKey: context.rootPublicKey, revokedKeyIds });
    const installed = await readInstalledManifest(context.paths, opened.manifest.id);
    return {
      manifest: opened.manifest,
      permissions: permissionsOf(opened.manifest),
      signer: result.status === 'valid' ? result.signer : null,
      signatureStatus: result.status,
      ...(result.status === 'invalid' ? { signatureProblem: { check: result.check, reason: result.reason } } : {}),
      installedVersion: installed?.version ?? null,
    };
  } finally {
    await opened.dispose();
  }
}
