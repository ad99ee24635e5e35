import type { ErrorCode } from '@plughost/host-sdk/core';
import { PATH_PARAMETERS } from './components/parameters.js';
import { errorResponses } from './error-responses.js';
import type { OperationObject, ReferenceObject, RequestBodyObject } from './openapi-types.js';
import type { RequestBodyDescription, RouteDescription } from './route-description.js';

/** The `{name}` placeholders of an OpenAPI path, in order. */
export function pathPlaceholders(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

function requestBody(body: RequestBodyDescription): RequestBodyObject {
  if ('json' in body) {
    return { required: true, ...(body.description ? { description: body.description } : {}), content: { 'application/json': { schema: body.json } } };
  }
  return { required: true, ...(body.description ? { description: body.description } : {}), content: { 'multipart/form-data': { schema: body.multipart } } };
}

/**
 * The error codes a route can answer besides its own: every request passes the Host check and
 * may fail unexpectedly; protected routes check the token; a plugin id in the path is validated;
 * a JSON body may be malformed or larger than the route's limit.
 */
function sharedErrors(route: RouteDescription): ErrorCode[] {
  const codes: ErrorCode[] = ['HOST_NOT_ALLOWED', 'INTERNAL_ERROR'];
  if (route.token !== false) codes.push('UNAUTHORIZED');
  if (pathPlaceholders(route.path).includes('id')) codes.push('INVALID_ARGUMENT');
  if (route.body && 'json' in route.body) codes.push('INVALID_ARGUMENT', 'BODY_TOO_LARGE');
  return codes;
}

function pathParameters(path: string): ReferenceObject[] {
  return pathPlaceholders(path).map((name) => {
    if (!Object.hasOwn(PATH_PARAMETERS, name)) throw new Error(`The OpenAPI path ${path} uses {${name}}, which has no entry in PATH_PARAMETERS`);
    return { $ref: `#/components/parameters/${name}` };
  });
}

/** The OpenAPI operation of one route description. */
export function describeRoute(route: RouteDescription): OperationObject {
  const parameters = [...pathParameters(route.path), ...(route.parameters ?? [])];
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    // An empty requirement list overrides the document-wide bearer requirement.
    ...(route.token === false ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: requestBody(route.body) } : {}),
    responses: { ...route.responses, ...errorResponses([...sharedErrors(route), ...(route.errors ?? [])]) },
  };
}
