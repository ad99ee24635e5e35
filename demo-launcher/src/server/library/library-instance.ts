import { JsonInstanceStore, type LauncherInstance } from '@plughost/backend-kit';

/** The pictures an instance card can show; the launcher page draws each one. */
export const INSTANCE_ICONS = ['grass', 'pickaxe', 'sword', 'island', 'chest'] as const;

/** One instance picture. */
export type InstanceIcon = (typeof INSTANCE_ICONS)[number];

/** What an instance created without an icon (a modpack install) shows. */
export const DEFAULT_INSTANCE_ICON: InstanceIcon = 'chest';

/**
 * What the demo keeps about an instance besides the backend's fields, in the same records of
 * `backend/instances.json`, so `GET /api/instance` lists it too (for plugins as for the page).
 */
export interface LibraryFields {
  /** One of {@link INSTANCE_ICONS}. */
  readonly icon: InstanceIcon;
  /** When it was last launched (ISO 8601); absent when never. */
  readonly lastPlayedAt: string;
}

/** An instance as the library shows it: the icon always set, the last launch when there was one. */
export type LibraryInstance = LauncherInstance & { readonly icon: InstanceIcon; readonly lastPlayedAt?: string };

/**
 * The library fields of a stored record, checked: the file may have been edited by hand, and an
 * instance a modpack created has none of them.
 */
export function toLibraryInstance(record: LauncherInstance & Partial<LibraryFields>): LibraryInstance {
  const { icon, lastPlayedAt, ...instance } = record;
  const knownIcon = typeof icon === 'string' && (INSTANCE_ICONS as readonly string[]).includes(icon) ? icon : DEFAULT_INSTANCE_ICON;
  const played = typeof lastPlayedAt === 'string' && !Number.isNaN(Date.parse(lastPlayedAt)) ? { lastPlayedAt } : {};
  return { ...instance, icon: knownIcon, ...played };
}

/**
 * The demo's instance store: the backend's JSON store (`backend/instances.json`) with the library
 * fields, read back checked, so every answer of `GET /api/instance` carries an icon.
 */
export class LibraryStore extends JsonInstanceStore<LibraryFields> {
  override async list(): Promise<readonly LibraryInstance[]> {
    return (await super.list()).map(toLibraryInstance);
  }

  override async get(id: string): Promise<LibraryInstance | null> {
    const record = await super.get(id);
    return record ? toLibraryInstance(record) : null;
  }
}
