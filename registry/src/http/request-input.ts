import type { Context } from 'koa';
import { RegistryError, invalidArgument } from '../errors/registry-error.js';

/** Pagination of the registry (spec "Conventions"): `page` from 1, `pageSize` default 20, at most 50. */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 50;
/** The highest page number accepted (keeps every offset a safe integer). */
export const PAGE_MAX = 1_000_000_000;

/** A validated page request. */
export interface PageRequest {
  readonly page: number;
  readonly pageSize: number;
}

/**
 * One query parameter as a string, `undefined` when absent. A repeated parameter
 * (`?page=1&page=2`) is refused rather than guessed at.
 */
export function queryParameter(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) throw invalidArgument(`The query parameter ${name} is given more than once`);
  return value;
}

function wholeNumber(ctx: Context, name: string, fallback: number, minimum: number, maximum: number): number {
  const text = queryParameter(ctx, name);
  if (text === undefined) return fallback;
  const value = /^[0-9]{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= minimum && value <= maximum)) throw invalidArgument(`${name} must be a whole number from ${minimum} to ${maximum} (got "${text}")`);
  return value;
}

/**
 * `page` (1 to {@link PAGE_MAX}, default 1) and `pageSize` (1 to 50, default 20). Out-of-range values are
 * refused with 400 `invalid_argument`, never clamped: a client asking for 100 items and silently
 * getting 50 would conclude it has seen everything. A page past the end is not an error; its
 * `items` are empty and `total` tells the client where the end is.
 */
export function pageRequest(ctx: Context): PageRequest {
  return {
    page: wholeNumber(ctx, 'page', 1, 1, PAGE_MAX),
    pageSize: wholeNumber(ctx, 'pageSize', PAGE_SIZE_DEFAULT, 1, PAGE_SIZE_MAX),
  };
}

/**
 * The request's JSON body as a prototype-less object (a `__proto__` key stays inert data), or 400
 * `invalid_argument` / 415 `unsupported_media_type`. Use after the `jsonBody()` parser.
 */
export function jsonObjectBody(ctx: Context): Record<string, unknown> {
  if (!ctx.is('application/json')) {
    throw new RegistryError('unsupported_media_type', 'Send the body as JSON (Content-Type: application/json)');
  }
  const body: unknown = ctx.request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidArgument('The request body must be a JSON object');
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) copy[key] = value;
  return copy;
}
