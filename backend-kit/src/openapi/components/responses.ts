import type { MediaTypeObject, ResponseObject } from '../openapi-types.js';
import { schemaRef, type SchemaName } from './schema-ref.js';

/** A response whose JSON body is the named schema. */
export function jsonResponse(description: string, schema: SchemaName, extra: Omit<ResponseObject, 'description' | 'content'> = {}): ResponseObject {
  const media: MediaTypeObject = { schema: schemaRef(schema) };
  return { description, ...extra, content: { 'application/json': media } };
}

/** A response with no body (204, 202 without content, 304). */
export function emptyResponse(description: string, extra: Omit<ResponseObject, 'description' | 'content'> = {}): ResponseObject {
  return { description, ...extra };
}
