import { DEFAULT_RESOURCE_LIMITS } from '../../config/resource-limits.js';

/** The limits of `POST /api/plugins/shell/<id>` (specification "Limits"; caps chosen here). */
export const SHELL_LIMITS = {
  /** `timeoutMs` when the request gives none. */
  defaultTimeoutMs: 15_000,
  /** Smallest accepted `timeoutMs`. */
  minimumTimeoutMs: 1_000,
  /** Largest accepted `timeoutMs`. */
  maximumTimeoutMs: 120_000,
  /**
   * Bytes kept of stdout and of stderr, each, unless the `shellOutputLimitBytes` option says
   * otherwise. Beyond it the rest is read and dropped (so the command never blocks on a full
   * pipe) and the text ends with {@link truncationMarker}.
   */
  maximumOutputBytes: DEFAULT_RESOURCE_LIMITS.shellOutputLimitBytes,
  /** Time between SIGTERM and SIGKILL when a timed-out process tree is killed. */
  killGraceMs: 500,
  /** Longest accepted command, in UTF-16 units. */
  maximumCommandLength: 64 * 1024,
} as const;

/** Appended to stdout or stderr when it was cut at {@link SHELL_LIMITS.maximumOutputBytes}. */
export function truncationMarker(limit: number): string {
  return `\n[output truncated after ${limit} bytes]`;
}
