import type { IncomingMessage } from 'node:http';
import { isInputAnswer } from '../legacy/input-request-id.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { depthExceeds, MAX_DEPTH } from '../protocol/json-depth.js';
import { RpcError } from '../protocol/rpc.error.js';

/** Largest body read when no body parser ran first (the SDK's own default). */
const MAX_BODY = 4 * 1024 * 1024;

/** The fast path's limit: Nest's default JSON body limit (100 KB), so both routes refuse the same bodies. */
export const FAST_PATH_MAX_BODY = 100 * 1024;

/** A JSON (or `+json`) content type. */
export const isJson = (req: IncomingMessage): boolean =>
  /^application\/([\w.+-]*\+)?json\b/i.test(req.headers['content-type'] ?? '');

/**
 * The parsed JSON body. Uses what the app's body parser produced; reads the stream itself when the
 * app runs without one. Returns `undefined` for non-JSON bodies (the SDK answers those with 415).
 */
export function readJsonBody(req: IncomingMessage & { body?: unknown }, limit = MAX_BODY): Promise<unknown> {
  return readBody(req, limit, (body) => body);
}

/**
 * `readJsonBody`, the body then passed through `check`: with no `async` function or `await`, a body read from the
 * stream costs one promise (the hot path: an SDK's context manager tracks each promise), one a parser made none.
 */
function readBody(
  req: IncomingMessage & { body?: unknown },
  limit: number,
  check: (body: unknown) => unknown,
): Promise<unknown> {
  try {
    // Whatever another parser (urlencoded, text) made of a non-JSON body, MCP wants 415 for it.
    if (!isJson(req)) return Promise.resolve(check(undefined));
    if (req.body !== undefined) {
      // Parsers that take any JSON value (Fastify's) leave this check to us; Express's strict one refuses the rest.
      if (!req.body || typeof req.body !== 'object') throw notARequest();
      return Promise.resolve(check(req.body));
    }
    return readText(req, limit, (text) => check(parseJson(text)));
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

/**
 * A POST's JSON body (`undefined` for other methods and non-JSON bodies). A JSON-RPC response is refused unless it
 * answers a request a 2025-11-25 task sent its client: the server sends no other requests, so a client has none to
 * answer (and no id to echo).
 */
export function readRequestBody(req: IncomingMessage, limit = MAX_BODY): Promise<unknown> {
  return req.method === 'POST' ? readBody(req, limit, requestOnly) : Promise.resolve(undefined);
}

const requestOnly = (body: unknown): unknown => {
  if (isResponse(body) && !isInputAnswer(body)) throw notARequest();
  return body;
};

const isResponse = (body: unknown): boolean =>
  !!body &&
  typeof body === 'object' &&
  !Array.isArray(body) &&
  !('method' in body) &&
  ('result' in body || 'error' in body);

/** Levels a request adds above a tool's arguments: the message, then its `params`. */
const ENVELOPE_LEVELS = 2;

/**
 * Refuses a body nesting deeper than a tool's arguments may (-32602, HTTP 400), whatever the method, before the
 * SDK or a handler sees it: their recursive schema checks overflow the stack a few thousand levels down.
 */
export function checkDepth(body: unknown): void {
  if (depthExceeds(body, MAX_DEPTH + ENVELOPE_LEVELS)) {
    throw new RpcError(RpcCode.InvalidParams, `Invalid params: nested deeper than ${MAX_DEPTH} levels`, undefined, 400);
  }
}

/** `parse` of the body as text, at most `limit` bytes (events, not an async iterator: this is the hot path). */
function readText(req: IncomingMessage, limit: number, parse: (text: string) => unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (err: unknown) => {
      req.off('data', onData);
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else fail(new RpcError(RpcCode.InvalidRequest, 'Request body too large', undefined, 413));
    };
    let ended = false;
    req.on('data', onData);
    req.once('error', fail);
    req.once('end', () => {
      ended = true;
      try {
        resolve(parse(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    // A client that goes away mid-body: nobody is left to answer. Every request closes once answered: no error then
    // (making one, stack and all, cost 8 % of a tasks/get).
    req.once('close', () => ended || reject(new Error('the request body was cut short')));
  });
}

/** JSON text as a request body: not JSON → -32700; JSON but not an object → -32600 (JSON-RPC 2.0). */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw parseError();
  }
  if (!value || typeof value !== 'object') throw notARequest();
  return value;
}

export const notARequest = (): RpcError =>
  new RpcError(RpcCode.InvalidRequest, 'Invalid Request: the body is not a JSON-RPC request object', undefined, 400);

export const parseError = (): RpcError =>
  new RpcError(RpcCode.ParseError, 'Parse error: the body is not valid JSON', undefined, 400);
