import type { ErrorCode } from '@plughost/host-sdk/core';
import type { HttpMethod, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from './openapi-types.js';

/** The body a route reads. A JSON body over the route's size limit is 413 `BODY_TOO_LARGE`. */
export type RequestBodyDescription =
  | {
      readonly json: SchemaObject;
      readonly description?: string;
    }
  | { readonly multipart: SchemaObject; readonly description?: string };

/**
 * One route of the local backend, as the OpenAPI description shows it. Adding a route to the
 * backend is adding one of these to the `paths/` module of its router; the builder adds what
 * every route shares (security, path parameters, the error responses of the middleware).
 */
export interface RouteDescription {
  readonly method: HttpMethod;
  /** The full path with OpenAPI placeholders, e.g. `/api/plugins/{id}/state`. */
  readonly path: string;
  /** Unique, camelCase; client generators name functions after it. */
  readonly operationId: string;
  /** The group it is listed under (one per router module). */
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** False for the routes that need no bearer token (decisions section 2); default true. */
  readonly token?: boolean;
  /**
   * Query and header parameters, or references to shared ones (`parameterRef`); path
   * parameters come from the path itself.
   */
  readonly parameters?: readonly (ParameterObject | ReferenceObject)[];
  readonly body?: RequestBodyDescription;
  /** The success responses by status. */
  readonly responses: Readonly<Record<string, ResponseObject>>;
  /** The error codes this route raises itself, besides the ones every route shares. */
  readonly errors?: readonly ErrorCode[];
}
