import { truncationMarker } from './shell-limits.js';

/**
 * Keeps the first `limit` bytes of a stream and counts the rest, so a chatty command cannot
 * fill the backend's memory while its pipe keeps draining.
 */
export class OutputCollector {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = false;

  constructor(private readonly limit: number) {}

  /** Adds one chunk read from the pipe. */
  push(chunk: Buffer): void {
    const room = this.limit - this.kept;
    if (chunk.length > room) this.dropped = true;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** The kept bytes as UTF-8 (invalid sequences become U+FFFD), plus the marker when cut. */
  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped ? text + truncationMarker(this.limit) : text;
  }
}
