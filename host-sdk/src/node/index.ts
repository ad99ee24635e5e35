/**
 * Node-only helpers of the host SDK: Ed25519 keys with `node:crypto` (generate, read PEM or seed,
 * sign, verify) and the package and certificate signers built on them.
 *
 * @packageDocumentation
 */
export {
  createNodeSigner,
  nodeSignDigest,
  nodeVerify,
  privateKeyObjectFromSeed,
  publicKeyObjectFromRaw,
  rawPublicKeyOf,
  seedFromKeyObject,
} from './ed25519-key-object.js';
export { readPrivateKey } from './read-private-key.js';
export type { Ed25519PrivateKey } from './read-private-key.js';
export { generateSigningKey } from './generate-signing-key.js';
export type { GeneratedSigningKey, GenerateSigningKeyOptions } from './generate-signing-key.js';
export { issueCertificateWithNodeCrypto, signPackageWithNodeCrypto } from './sign-with-node-crypto.js';
export type {
  NodeIssueCertificateOptions,
  NodePrivateKeyInput,
  NodeSignPackageOptions,
} from './sign-with-node-crypto.js';
