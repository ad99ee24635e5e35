/**
 * The parts of the OpenAPI 3.1 object model this description uses. Schemas are JSON Schema
 * 2020-12 objects, kept as plain data.
 */

/** A JSON Schema (2020-12) object, or a `$ref` to a component schema. */
export type SchemaObject = Readonly<Record<string, unknown>>;

/** The HTTP methods the local backend answers. */
export type HttpMethod = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';

/** A header of a response. */
export interface HeaderObject {
  readonly description: string;
  readonly schema: SchemaObject;
}

/** A media type of a request or response body. */
export interface MediaTypeObject {
  readonly schema: SchemaObject;
  readonly example?: unknown;
}

/** One response of an operation. */
export interface ResponseObject {
  readonly description: string;
  readonly headers?: Readonly<Record<string, HeaderObject | { readonly $ref: string }>>;
  readonly content?: Readonly<Record<string, MediaTypeObject>>;
}

/** A path, query or header parameter. */
export interface ParameterObject {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly description: string;
  readonly required?: boolean;
  readonly schema: SchemaObject;
}

/** A request body. */
export interface RequestBodyObject {
  readonly description?: string;
  readonly required: boolean;
  readonly content: Readonly<Record<string, MediaTypeObject>>;
}

/** A reference to a component. */
export interface ReferenceObject {
  readonly $ref: string;
}

/** One operation (a method on a path). */
export interface OperationObject {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly parameters?: readonly (ParameterObject | ReferenceObject)[];
  readonly requestBody?: RequestBodyObject;
  readonly responses: Readonly<Record<string, ResponseObject | ReferenceObject>>;
}

/** A whole OpenAPI 3.1 document. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly jsonSchemaDialect?: string;
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly paths: Readonly<Record<string, Partial<Record<HttpMethod, OperationObject>>>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, SchemaObject>>;
    readonly parameters: Readonly<Record<string, ParameterObject>>;
    readonly headers: Readonly<Record<string, HeaderObject>>;
    readonly securitySchemes: Readonly<Record<string, Readonly<Record<string, string>>>>;
  };
}
