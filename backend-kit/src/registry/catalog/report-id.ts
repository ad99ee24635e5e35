/**
 * The part of a reported plugin id after its last dot (the whole id when it has none). Stored
 * beside each telemetry report so the pause count can find candidates through an index: a report
 * counts for a plugin when its id equals the plugin id, equals the slug, or ends with `.` + slug,
 * and each of those ids has the tail of either the plugin id or the slug.
 *
 * @example
 * ```ts
 * idTail('com.example.hello'); // 'hello'
 * idTail('hello'); // 'hello'
 * ```
 */
export function idTail(id: string): string {
  return id.slice(id.lastIndexOf('.') + 1);
}
