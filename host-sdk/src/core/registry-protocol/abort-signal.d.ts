/**
 * The one member of the Web platform's `AbortSignal` the registry client reads. The core compiles
 * without DOM or node types; consumers have the full global (DOM lib or `@types/node`), with which
 * this declaration merges, so the client's `fetch` option accepts the platform's own `fetch`.
 */
interface AbortSignal {
  readonly aborted: boolean;
}
