import { findPluginIdProblem, isValidPluginId, isValidSlug } from '@plughost/host-sdk/core';
import { invalidArgument } from '../errors/registry-error.js';

/** Slugs that name routes (`GET /plugins/mine`), so no plugin may have them. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(['mine', 'check-updates']);

export const MAX_NAME_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 2000;
export const MAX_CATEGORY_LENGTH = 50;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 32;
export const MAX_ICON_URL_LENGTH = 2048;

/** A checked `POST /plugins` body. */
export interface PluginInput {
  readonly id: string;
  /** Absent: derived from the id (see {@link slugFromPluginId}). */
  readonly slug?: string;
  readonly name: string;
  readonly description?: string;
  readonly category?: string | null;
  readonly tags?: readonly string[];
  readonly iconUrl?: string | null;
}

const FIELDS = new Set(['id', 'slug', 'name', 'description', 'category', 'tags', 'iconUrl']);

/**
 * The default slug of a plugin: the last segment of its id, with `_` as `-`, runs of `-` as one,
 * at most 64 characters (`com.example.map_tools` → `map-tools`). `null` when nothing usable is left.
 */
export function slugFromPluginId(id: string): string | null {
  const tail = id.slice(id.lastIndexOf('.') + 1);
  const slug = tail
    .replace(/_/g, '-')
    .replace(/-+/g, '-')
    .slice(0, 64)
    .replace(/^-+|-+$/g, '');
  return isValidSlug(slug) && !RESERVED_SLUGS.has(slug) ? slug : null;
}

/** @throws RegistryError `invalid_argument` when `slug` breaks the slug rule or is reserved. */
export function checkSlug(slug: unknown): string {
  if (!isValidSlug(slug)) throw invalidArgument('slug must be 1 to 64 characters of a-z, 0-9 and single hyphens, starting and ending with a letter or digit');
  if (RESERVED_SLUGS.has(slug)) throw invalidArgument(`The slug "${slug}" is reserved; choose another`);
  return slug;
}

function optionalText(body: Readonly<Record<string, unknown>>, field: string, maximum: number): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidArgument(`${field} must be a string`);
  const text = value.trim();
  if (text.length > maximum) throw invalidArgument(`${field} must be at most ${maximum} characters`);
  return text;
}

function nullableText(body: Readonly<Record<string, unknown>>, field: string, maximum: number): string | null | undefined {
  if (body[field] === null) return null;
  const text = optionalText(body, field, maximum);
  return text === '' ? null : text;
}

function tagsOf(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((tag) => typeof tag !== 'string')) throw invalidArgument('tags must be an array of strings');
  const tags = [...new Set((value as string[]).map((tag) => tag.trim().toLowerCase()).filter((tag) => tag !== ''))];
  if (tags.length > MAX_TAGS) throw invalidArgument(`tags holds at most ${MAX_TAGS} tags`);
  const bad = tags.find((tag) => tag.length > MAX_TAG_LENGTH || tag.includes(','));
  if (bad !== undefined) throw invalidArgument(`The tag "${bad}" is longer than ${MAX_TAG_LENGTH} characters or has a comma`);
  return tags;
}

function iconUrlOf(body: Readonly<Record<string, unknown>>): string | null | undefined {
  const url = nullableText(body, 'iconUrl', MAX_ICON_URL_LENGTH);
  if (url === null || url === undefined) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument('iconUrl must be an absolute https URL');
  }
  if (parsed.protocol !== 'https:') throw invalidArgument('iconUrl must be an https URL');
  return parsed.href;
}

/**
 * Checks the body of `POST /plugins`: `{id, slug?, name, description?, category?, tags?, iconUrl?}`.
 * Unknown fields are refused (a typo must not be silently dropped).
 *
 * @throws RegistryError `invalid_argument` naming the first problem.
 */
export function parsePluginInput(body: Readonly<Record<string, unknown>>): PluginInput {
  const unknown = Object.keys(body).find((key) => !FIELDS.has(key));
  if (unknown !== undefined) throw invalidArgument(`Unknown field "${unknown}"; the body is {id, slug?, name, description?, category?, tags?, iconUrl?}`);
  const id = body.id;
  if (typeof id !== 'string' || !isValidPluginId(id)) {
    throw invalidArgument(
      `id ${typeof id === 'string' ? (findPluginIdProblem(id) ?? 'is invalid') : 'must be the manifest id, a string such as com.example.hello'}`,
    );
  }
  const name = optionalText(body, 'name', MAX_NAME_LENGTH);
  if (name === undefined || name === '') throw invalidArgument('name must be a non-empty string');
  const slug = body.slug === undefined ? undefined : checkSlug(body.slug);
  const description = optionalText(body, 'description', MAX_DESCRIPTION_LENGTH);
  const category = nullableText(body, 'category', MAX_CATEGORY_LENGTH);
  const tags = tagsOf(body.tags);
  const iconUrl = iconUrlOf(body);
  return {
    id,
    name,
    ...(slug !== undefined ? { slug } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(category !== undefined ? { category } : {}),
    ...(tags !== undefined ? { tags } : {}),
    ...(iconUrl !== undefined ? { iconUrl } : {}),
  };
}
