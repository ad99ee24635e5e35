import type { Readable } from 'node:stream';

/** A stored package file: its lower-case hex SHA-256 (the key) and size in bytes. */
export interface StoredBlob {
  readonly sha256: string;
  readonly size: number;
}

/**
 * Where the registry keeps package files, content-addressed by SHA-256 (identical packages are
 * stored once, and a stored file never changes). The catalog keeps only the digest, so every
 * registry instance of one store must reach the same blobs: `FileBlobStore` on a volume they all
 * mount, or an implementation of this interface over an object store.
 *
 * An S3-compatible store fits as it is: `put`/`putFile` hash the bytes and upload them under the
 * digest (skipping an existing key), `has` is a HEAD of the key, `open` streams a GET, `remove`
 * deletes it. Pass it as `blobStore` to `createRegistry`.
 */
export interface BlobStore {
  /** Stores `bytes` unless a blob with their digest exists; resolves when they are durable. */
  put(bytes: Uint8Array): Promise<StoredBlob>;
  /** Stores a file already on disk (a received upload) the same way. */
  putFile(file: string): Promise<StoredBlob>;
  /** Whether the blob is there; the download route asks before every answer, so a lost blob answers 503 `package_unavailable`. */
  has(sha256: string): Promise<boolean>;
  /** The blob's bytes as a stream; rejects when the blob is missing, before any byte is sent. */
  open(sha256: string): Promise<Readable>;
  remove(sha256: string): Promise<void>;
}
