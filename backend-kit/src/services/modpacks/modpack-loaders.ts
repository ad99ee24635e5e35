/** The mod loaders a pack may need; the names match `ModpackGame.loader`. */
export const MODPACK_LOADERS = ['forge', 'neoforge', 'fabric', 'quilt'] as const;

/** A supported mod loader. */
export type ModpackLoader = (typeof MODPACK_LOADERS)[number];

/** True when `name` is a supported loader name. */
export function isModpackLoader(name: unknown): name is ModpackLoader {
  return typeof name === 'string' && (MODPACK_LOADERS as readonly string[]).includes(name);
}
