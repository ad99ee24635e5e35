/**
 * Bytes per second over a sliding window, so the displayed speed follows the transfer instead of
 * averaging over its whole life (a stalled download shows 0 after the window).
 */
export class SpeedMeter {
  private readonly samples: { at: number; bytes: number }[] = [];

  constructor(
    private readonly windowMs = 3000,
    private readonly now: () => number = Date.now,
  ) {}

  add(bytes: number): void {
    const at = this.now();
    const last = this.samples[this.samples.length - 1];
    // One sample per 100 ms keeps the window small however many chunks arrive.
    if (last && at - last.at < 100) last.bytes += bytes;
    else this.samples.push({ at, bytes });
    this.drop(at);
  }

  /** Current speed in bytes per second, rounded. */
  bytesPerSecond(): number {
    const at = this.now();
    this.drop(at);
    const first = this.samples[0];
    if (!first) return 0;
    const total = this.samples.reduce((sum, sample) => sum + sample.bytes, 0);
    // At least one second, so the first chunk does not read as a burst of gigabytes per second.
    const span = Math.max(at - first.at, 1000);
    return Math.round((total * 1000) / span);
  }

  reset(): void {
    this.samples.length = 0;
  }

  private drop(at: number): void {
    while (this.samples.length > 0 && at - (this.samples[0]?.at ?? at) > this.windowMs) this.samples.shift();
  }
}
