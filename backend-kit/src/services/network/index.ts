export { classifyAddress, isPublicAddress, type AddressVerdict } from './address-policy.js';
export { checkDestination, parseTargetUrl, type CheckedDestination, type DestinationCheckOptions } from './check-destination.js';
export {
  createGuardedFetcher,
  type GuardedFetcher,
  type GuardedFetcherOptions,
  type GuardedRequestInit,
  type GuardedResponse,
} from './guarded-fetcher.js';
export { outgoingHeaders } from './outgoing-headers.js';
export { DEFAULT_BODY_LIMIT, readLimitedBody } from './read-limited-body.js';
export { systemResolver, type HostResolver, type ResolvedAddress } from './resolve-host.js';
export { createTrustedHostMatcher } from './trusted-hosts.js';
