import type { ErrorCode } from '@plughost/host-sdk/core';
import { ERROR_STATUS } from '../http/error-status.js';
import { headerRef } from './components/parameters.js';
import { schemaRef } from './components/schema-ref.js';
import type { ResponseObject } from './openapi-types.js';

/**
 * The error responses for a set of codes, one per HTTP status (from the backend's own
 * `ERROR_STATUS` map, so the description cannot drift from what the error handler sends). Each
 * narrows `error.code` to the codes that status carries on this route.
 */
export function errorResponses(codes: Iterable<ErrorCode>): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error ${list.map((code) => `\`${code}\``).join(', ')}.`,
      ...(list.includes('UNAUTHORIZED') ? { headers: { 'WWW-Authenticate': headerRef('WwwAuthenticate') } } : {}),
      content: {
        'application/json': {
          schema: { ...schemaRef('ErrorBody'), properties: { error: { properties: { code: { enum: list } } } } },
        },
      },
    };
  }
  return responses;
}
