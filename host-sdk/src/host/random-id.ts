/** A random id for invocations, overlays and streams (unguessable, so a plugin cannot name another's). */
export function randomId(): string {
  return crypto.randomUUID();
}
