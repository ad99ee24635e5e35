import { readFile } from 'node:fs/promises';
import type { DownloadCategory } from '@plughost/host-sdk/core';

/** The kinds of game content the catalogue offers. */
export const RESOURCE_TYPES = ['mod', 'resourcepack', 'shaderpack', 'datapack'] as const;

/** One kind of game content. */
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** The instance folder (download category) each kind installs into. */
export const CATEGORY_OF: Readonly<Record<ResourceType, DownloadCategory>> = {
  mod: 'mods',
  resourcepack: 'resourcepacks',
  shaderpack: 'shaderpacks',
  datapack: 'datapacks',
};

/** One entry of `demo-launcher/resources/catalogue.json`. */
export interface CatalogueResource {
  /** Lower-case letters, digits and dashes; stable. */
  readonly id: string;
  readonly name: string;
  readonly summary: string;
  readonly type: ResourceType;
  readonly author: string;
  readonly version: string;
  /** Game versions it works with. */
  readonly gameVersions: readonly string[];
  /** Mod loaders it works with (mods only; empty for the other kinds). */
  readonly loaders: readonly string[];
  readonly downloads: number;
  /** Exact size of its file. */
  readonly sizeBytes: number;
  /** The file name it is installed under in the instance's category folder. */
  readonly fileName: string;
  readonly updatedAt: string;
}

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// One safe file name: no folders, no leading dot, a known archive extension.
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*\.(?:jar|zip)$/;
/** Smallest file the generator can write (its zip structure) and the largest the demo ships. */
const SIZE_RANGE = { minimum: 4096, maximum: 16 * 1024 * 1024 } as const;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '');
}

/** Checks one catalogue entry; the problem names the field, so a hand edit is easy to fix. */
function checkResource(value: unknown, index: number): CatalogueResource {
  const where = `resources[${index}]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} is not an object`);
  const entry = value as Record<string, unknown>;
  const text = (field: string): string => {
    const found = entry[field];
    if (typeof found !== 'string' || found.trim() === '') throw new Error(`${where}.${field} must be a non-empty string`);
    return found;
  };
  const id = text('id');
  if (!ID.test(id)) throw new Error(`${where}.id "${id}" must be lower-case letters, digits and dashes`);
  const type = text('type');
  if (!(RESOURCE_TYPES as readonly string[]).includes(type)) throw new Error(`${where}.type must be one of ${RESOURCE_TYPES.join(', ')}`);
  const fileName = text('fileName');
  if (!FILE_NAME.test(fileName)) throw new Error(`${where}.fileName "${fileName}" must be one file name ending in .jar or .zip`);
  const { gameVersions, loaders, downloads, sizeBytes } = entry;
  if (!isStringList(gameVersions) || gameVersions.length === 0) throw new Error(`${where}.gameVersions must list at least one game version`);
  if (!isStringList(loaders)) throw new Error(`${where}.loaders must be a list of loader names`);
  if (type === 'mod' && loaders.length === 0) throw new Error(`${where}.loaders must name the mod's loaders`);
  if (typeof downloads !== 'number' || !Number.isSafeInteger(downloads) || downloads < 0) throw new Error(`${where}.downloads must be a whole number`);
  if (typeof sizeBytes !== 'number' || !Number.isSafeInteger(sizeBytes) || sizeBytes < SIZE_RANGE.minimum || sizeBytes > SIZE_RANGE.maximum) {
    throw new Error(`${where}.sizeBytes must be a whole number from ${SIZE_RANGE.minimum} to ${SIZE_RANGE.maximum}`);
  }
  const updatedAt = text('updatedAt');
  if (Number.isNaN(Date.parse(updatedAt))) throw new Error(`${where}.updatedAt must be an ISO 8601 date`);
  return {
    id,
    name: text('name'),
    summary: text('summary'),
    type: type as ResourceType,
    author: text('author'),
    version: text('version'),
    gameVersions,
    loaders,
    downloads,
    sizeBytes,
    fileName,
    updatedAt,
  };
}

/** The demo's catalogue of game resources, checked and indexed by id. */
export class ResourceCatalogue {
  private readonly byId: ReadonlyMap<string, CatalogueResource>;

  constructor(readonly resources: readonly CatalogueResource[]) {
    const byId = new Map<string, CatalogueResource>();
    for (const resource of resources) {
      if (byId.has(resource.id)) throw new Error(`The catalogue lists ${resource.id} twice`);
      byId.set(resource.id, resource);
    }
    this.byId = byId;
  }

  /** Reads and checks `catalogue.json`; a broken file stops the launcher's start with the entry and field at fault. */
  static async load(file: string | URL): Promise<ResourceCatalogue> {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { resources?: unknown };
    if (!Array.isArray(parsed.resources)) throw new Error(`${String(file)} has no "resources" list`);
    return new ResourceCatalogue(parsed.resources.map(checkResource));
  }

  get(id: string): CatalogueResource | undefined {
    return this.byId.get(id);
  }
}
