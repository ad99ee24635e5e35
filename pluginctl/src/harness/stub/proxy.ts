/**
 * `POST /api/plugins/proxy` without the network: the request is checked like the backend checks
 * it (fields, http(s) only, private and reserved addresses refused), then answered with a fixed
 * ProxyResponse, or with `stream: true` a simulated server-sent event stream in the backend's
 * format (one `data:` event per chunk, the last one `[DONE]`). `proxyResponse` of the mock file
 * replaces the answer and the chunks.
 */
import { STATUS_CODES } from 'node:http';
import { type ProxyRequest, checkDestination, parseProxyRequest } from '@plughost/backend-kit';
import { PluginHostError, type ProxyResponse, formatServerSentEvent } from '@plughost/host-sdk/core';
import { readJsonObject, sendErrorAnswer, sendJson } from './http-io.js';
import { type MockErrorAnswer, type MockProxyResponse, isMockErrorAnswer } from './mock-overrides.js';
import type { StubRequest } from './stub-router.js';

/** The events of the stub's simulated stream, unless the mock file gives `proxyResponse.chunks`. */
export const DEFAULT_STREAM_CHUNKS: readonly string[] = ['This', ' is', ' a simulated', ' stream', ' from the harness stub.', '[DONE]'];

/** Time between two simulated events: long enough to see a stream arrive piece by piece. */
const CHUNK_INTERVAL_MS = 40;

function defaultAnswer(request: ProxyRequest): ProxyResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      stub: true,
      message: 'A fixed answer of the debug harness stub, which reaches no network; set proxyResponse in a --mock file to change it.',
      method: request.method,
      url: request.url.href,
    }),
    bodyBase64: null,
  };
}

/** The mock's fields over the stub's answer; a mock with bytes and no text clears the default text. */
function answerOf(request: ProxyRequest, mock: MockProxyResponse | undefined): ProxyResponse {
  const base = defaultAnswer(request);
  if (!mock) return base;
  const { chunks: _chunks, ...fields } = mock;
  const textCleared = fields.bodyBase64 !== undefined && fields.bodyBase64 !== null && fields.body === undefined;
  return { ...base, ...(textCleared ? { body: null } : {}), ...fields } as ProxyResponse;
}

/**
 * The backend's destination check without DNS: literal addresses and `localhost` names get the
 * real verdict; any other name is taken as public (as if resolved into the fake-IP range
 * 198.18.0.0/15, which the backend allows), since the stub never connects anywhere.
 */
async function checkTarget(url: URL): Promise<void> {
  await checkDestination(url, { resolve: async () => [{ address: '198.18.0.1', family: 4 }], isTrusted: () => false });
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function sendStream(request: StubRequest, chunks: readonly string[]): Promise<void> {
  const { response } = request;
  response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
  response.flushHeaders();
  for (const [index, chunk] of chunks.entries()) {
    if (index > 0) await wait(CHUNK_INTERVAL_MS);
    if (response.destroyed) return;
    response.write(formatServerSentEvent({ data: chunk }));
  }
  response.end();
}

/** Answers one proxy request (see the module comment). */
export async function answerProxy(request: StubRequest, mock: MockProxyResponse | MockErrorAnswer | undefined): Promise<void> {
  const proxyRequest = parseProxyRequest(await readJsonObject(request.incoming));
  await checkTarget(proxyRequest.url);
  if (isMockErrorAnswer(mock)) {
    sendErrorAnswer(request.response, mock);
    return;
  }
  const answer = answerOf(proxyRequest, mock);
  if (!proxyRequest.stream) {
    sendJson(request.response, 200, answer);
    return;
  }
  if (answer.status < 200 || answer.status > 299) {
    // As the backend: nothing was streamed yet, so a failed upstream is a JSON error.
    throw new PluginHostError('PROXY_UPSTREAM_FAILED', `The upstream answered ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trim());
  }
  await sendStream(request, mock?.chunks ?? DEFAULT_STREAM_CHUNKS);
}
