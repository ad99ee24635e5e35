import type { ServerResponse } from 'node:http';
import type { ErrorCode } from '@plughost/host-sdk/core';

/**
 * Answers with the project's error body (`{"error": {"code", "message"}}`, decisions 3) and
 * `extraHeaders` (`Allow` for a 405).
 */
export function sendError(
  response: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  extraHeaders: Readonly<Record<string, string>> = {},
): void {
  const body = JSON.stringify({ error: { code, message } });
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extraHeaders,
  });
  response.end(body);
}
