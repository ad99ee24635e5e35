/**
 * Reading and answering HTTP exchanges the way the local backend does (decisions section 3): JSON
 * bodies, and every error as `{"error": {"code", "message"}}` with the status of its code.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_STATUS, pluginHostErrorBody } from '@plughost/backend-kit';
import { ErrorCode, PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';
import type { MockErrorAnswer } from './mock-overrides.js';

/** Largest request body the stub reads (the backend's largest JSON limit, the proxy's). */
export const STUB_BODY_LIMIT = 4 * 1024 * 1024;

const NOT_AN_OBJECT = 'The request body must be a JSON object (Content-Type: application/json)';

/** Answers `body` as JSON. Nothing the stub answers may be cached: it changes with every edit. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
  });
  response.end(text);
}

/** Answers a mock file's error answer with the status of its code. */
export function sendErrorAnswer(response: ServerResponse, answer: MockErrorAnswer): void {
  sendJson(response, ERROR_STATUS[answer.error.code] ?? 500, answer);
}

/**
 * Answers `error`: a `PluginHostError` with its code's status and the body the backend sends for
 * it; anything else is a fault of the stub, 500 `INTERNAL_ERROR` (reported through `report`).
 */
export function sendError(response: ServerResponse, error: unknown, report: (error: unknown) => void): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (isPluginHostError(error)) {
    sendJson(response, ERROR_STATUS[error.code] ?? 500, pluginHostErrorBody(error));
    return;
  }
  report(error);
  sendJson(response, 500, { error: { code: ErrorCode.INTERNAL_ERROR, message: 'Internal error of the harness stub; its log has the details' } });
}

function isJsonRequest(request: IncomingMessage): boolean {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

function refuseProtoKey(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new PluginHostError('INVALID_ARGUMENT', 'The JSON request body must not contain a "__proto__" key');
  return value;
}

async function readText(request: IncomingMessage): Promise<string> {
  const tooLarge = (): PluginHostError => new PluginHostError('BODY_TOO_LARGE', `The request body is larger than ${STUB_BODY_LIMIT} bytes`);
  if (Number(request.headers['content-length'] ?? 0) > STUB_BODY_LIMIT) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > STUB_BODY_LIMIT) throw tooLarge();
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The JSON object of a request body, copied onto a prototype-less object. An empty body is `{}`.
 *
 * @param options - `optional`: a request without a body (no length, not chunked) is `{}` whatever
 *   its type, as the backend's WASM invoke route allows.
 * @throws PluginHostError 400 `INVALID_ARGUMENT` (not JSON, not an object, a `__proto__` key),
 *   413 `BODY_TOO_LARGE`.
 */
export async function readJsonObject(request: IncomingMessage, options: { optional?: boolean } = {}): Promise<Record<string, unknown>> {
  const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  if (options.optional === true && !hasBody) return Object.create(null) as Record<string, unknown>;
  if (!isJsonRequest(request)) throw new PluginHostError('INVALID_ARGUMENT', NOT_AN_OBJECT);
  const text = await readText(request);
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text, refuseProtoKey);
    } catch (error) {
      if (isPluginHostError(error)) throw error;
      throw new PluginHostError('INVALID_ARGUMENT', `The request body is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PluginHostError('INVALID_ARGUMENT', NOT_AN_OBJECT);
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, entry] of Object.entries(value)) copy[key] = entry;
  return copy;
}
