import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { RegistryContext } from '../registry-context.js';
import type { DeveloperKeys } from './developer-keys.js';
import type { VersionPublisher } from './publish-version.js';
import type { PublishingAuthenticate } from './publisher-account.js';
import type { PublishingRepository } from './publishing-repository.js';

/** What the publishing route modules share (built once by `createPublishingRouter`). */
export interface PublishingServices {
  readonly context: RegistryContext;
  readonly catalog: CatalogRepository;
  readonly repository: PublishingRepository;
  readonly authenticate: PublishingAuthenticate;
  readonly keys: DeveloperKeys;
  readonly publisher: VersionPublisher;
  /** Where uploads are received and packages extracted (under the data directory). */
  readonly uploadDirectory: string;
  readonly maxPackageBytes: number;
}
