import type { PluginManifest } from '@plughost/host-sdk/core';
import { openPluginPackage, type OpenedPluginPackage } from '@plughost/backend-kit';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { CatalogPlugin, NewPlugin } from '../catalog/catalog-types.js';
import { RegistryError, invalidArgument, isRegistryError } from '../errors/registry-error.js';
import type { RegistryContext } from '../registry-context.js';
import type { DeveloperKeys } from './developer-keys.js';
import { packageErrorAnswer } from './package-error-answer.js';
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, slugFromPluginId } from './plugin-input.js';
import type { Publisher } from './publisher-account.js';
import type { NewUpload, PublishingRepository, RecordedUpload } from './publishing-repository.js';
import { ownedVersionView, type UploadedVersionView } from './publishing-views.js';
import { reviewDecision } from './review-rule.js';
import type { RootKey } from './root-key.js';

/** Longest changelog of an upload, in characters (spec "Limits"). */
export const MAX_CHANGELOG_LENGTH = 4000;

/** What {@link VersionPublisher} works with. */
export interface VersionPublisherServices {
  readonly context: RegistryContext;
  readonly catalog: CatalogRepository;
  readonly repository: PublishingRepository;
  readonly keys: DeveloperKeys;
  readonly root: RootKey;
  /** Where packages are extracted for checking (on the package store's file system). */
  readonly workDirectory: string;
  readonly maxPackageBytes: number;
}

/** One upload of `POST /plugins/<id>/versions`. */
export interface VersionUpload {
  readonly publisher: Publisher;
  /** The `<id>` of the path. */
  readonly pluginId: string;
  /** The received package file. */
  readonly packagePath: string;
  readonly changelog: string;
}

/** @throws RegistryError `changelog_too_long` above {@link MAX_CHANGELOG_LENGTH} characters (code points). */
export function checkChangelog(changelog: string | undefined): string {
  const text = (changelog ?? '').trim();
  const length = [...text].length;
  if (length > MAX_CHANGELOG_LENGTH) {
    throw new RegistryError('changelog_too_long', `The changelog has ${length} characters; at most ${MAX_CHANGELOG_LENGTH} are allowed`);
  }
  return text;
}

/**
 * The upload pipeline of `POST /plugins/<id>/versions`: reads and checks the package (signature
 * required, trusted root = the registry's root, revoked keys refused), checks that it is the
 * plugin of the path, owned by the caller and signed by the caller's own key, stores the bytes and
 * adds the version as `published` or `pending_review` (see `reviewDecision`).
 */
export class VersionPublisher {
  constructor(private readonly services: VersionPublisherServices) {}

  /**
   * The plugin record of `pluginId` if the caller may upload to it: `null` when there is none yet
   * (the first upload creates it).
   *
   * @throws RegistryError `plugin_id_taken` when another account owns the id.
   */
  async uploadTarget(pluginId: string, publisher: Publisher): Promise<CatalogPlugin | null> {
    const plugin = await this.services.catalog.getPlugin(pluginId);
    if (plugin !== null && plugin.ownerAccountId !== publisher.accountId) {
      throw new RegistryError('plugin_id_taken', `The plugin id ${pluginId} belongs to another account`);
    }
    return plugin;
  }

  async publish(upload: VersionUpload): Promise<UploadedVersionView> {
    const { context, keys, root, workDirectory, maxPackageBytes } = this.services;
    // The verifier refuses revoked keys itself (decisions section 5, check 9).
    const revokedKeyIds = await keys.revokedKeyIds();
    let opened: OpenedPluginPackage;
    try {
      opened = await openPluginPackage(upload.packagePath, {
        workDirectory,
        limits: { maxPackageBytes },
        signaturePolicy: 'required',
        trust: { rootPublicKey: root.publicKey, revokedKeyIds },
      });
    } catch (error) {
      throw packageErrorAnswer(error);
    }
    try {
      const { manifest } = opened;
      if (manifest.id !== upload.pluginId) {
        throw invalidArgument(`The package is the plugin ${manifest.id}, not ${upload.pluginId}: upload it to /plugins/${manifest.id}/versions`);
      }
      const signerKeyId = await this.checkSigner(opened, upload.publisher);
      const existing = await this.uploadTarget(manifest.id, upload.publisher);
      // An early, cheap refusal; the transaction below decides when two uploads race.
      if (existing !== null && (await this.services.catalog.version(existing.slug, manifest.version)) !== null) {
        throw this.versionExists(existing, manifest.version);
      }
      const plugin = existing ?? this.newPlugin(manifest, upload.publisher);
      const decision = reviewDecision(manifest);
      // Content-addressed: a blob stored for an upload that then fails is the same blob a retry
      // stores, never a second copy.
      const stored = await context.blobs.putFile(upload.packagePath);
      const recorded = await this.recordUpload({
        plugin,
        version: {
          version: manifest.version,
          sha256: stored.sha256,
          sizeBytes: stored.size,
          changelog: upload.changelog,
          minLauncherVersion: manifest.minLauncherVersion,
          permissions: manifest.permissions,
          layers: manifest.layers,
          status: decision.status,
          signerKeyId,
          createdAt: context.now().toISOString(),
        },
        facts: {
          uploadedBy: upload.publisher.accountId,
          uploaderName: upload.publisher.username ?? null,
          reviewReasons: decision.reasons,
          highestRisk: decision.highestRisk,
        },
      });
      const { version } = recorded;
      context.logger.info(`Version uploaded: ${recorded.plugin.id} ${version.version} (${version.status})`, { slug: recorded.plugin.slug, signerKeyId });
      return { ...ownedVersionView(version), pluginId: recorded.plugin.id, slug: recorded.plugin.slug, reviewReasons: [...decision.reasons] };
    } finally {
      await opened.dispose();
    }
  }

  /**
   * The package's signer key must be one the root certified for the caller; a certificate of
   * another account's key (valid as it is) does not let the caller publish.
   */
  private async checkSigner(opened: OpenedPluginPackage, publisher: Publisher): Promise<string> {
    if (opened.signature.status !== 'valid') throw new RegistryError('signature_invalid', 'The package is not signed');
    const { keyId } = opened.signature.signer;
    const key = await this.services.repository.findKey(keyId);
    if (key === null || key.accountId !== publisher.accountId) {
      throw new RegistryError(
        'signature_invalid',
        `The package is signed by the key ${keyId}, which is not yours: sign it with the key you certified with POST /developer/keys`,
      );
    }
    if (key.revokedAt !== null) {
      throw new RegistryError('signature_invalid', `The package is signed by your key ${keyId}, revoked at ${key.revokedAt}; sign it with your current key`);
    }
    return keyId;
  }

  /** The plugin record the first upload of a manifest id creates. */
  private newPlugin(manifest: PluginManifest, publisher: Publisher): NewPlugin {
    const slug = slugFromPluginId(manifest.id);
    if (slug === null) {
      throw invalidArgument(`No slug can be derived from ${manifest.id}; create the plugin first with POST /plugins {id, slug, name}`);
    }
    return {
      id: manifest.id,
      slug,
      ownerAccountId: publisher.accountId,
      name: manifest.name.trim().slice(0, MAX_NAME_LENGTH) || manifest.id,
      description: (manifest.description ?? '').trim().slice(0, MAX_DESCRIPTION_LENGTH),
      createdAt: this.services.context.now().toISOString(),
    };
  }

  /** The upload's records in one transaction, its refusals said for an upload. */
  private async recordUpload(upload: NewUpload): Promise<RecordedUpload> {
    try {
      return await this.services.repository.recordUpload(upload);
    } catch (error) {
      if (isRegistryError(error) && error.code === 'slug_taken') {
        throw new RegistryError(
          'slug_taken',
          `The slug ${upload.plugin.slug} (from the id) is taken; create the plugin first with POST /plugins {id, slug, name}`,
        );
      }
      throw error;
    }
  }

  private versionExists(plugin: Pick<CatalogPlugin, 'id'>, version: string): RegistryError {
    return new RegistryError('version_exists', `${plugin.id} ${version} exists already; a new upload needs a higher version`);
  }
}
