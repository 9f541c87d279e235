import type { IncomingMessage } from 'node:http';
import { RpcCode } from '../protocol/protocol.constants.js';
import { RpcError } from '../protocol/rpc-error.js';

/** Largest body read when no body parser ran first (the SDK's own default). */
const MAX_BODY = 4 * 1024 * 1024;

const isJson = (req: IncomingMessage): boolean => /^application\/([\w.+-]*\+)?json\b/i.test(req.headers['content-type'] ?? '');

/**
 * The parsed JSON body. Uses what the app's body parser produced; reads the stream itself when the
 * app runs without one. Returns `undefined` for non-JSON bodies (the SDK answers those with 415).
 */
export async function readJsonBody(req: IncomingMessage & { body?: unknown }): Promise<unknown> {
  if (req.body !== undefined && !(isEmptyObject(req.body) && !isJson(req))) return req.body;
  if (!isJson(req)) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new RpcError(RpcCode.InvalidRequest, 'Request body too large', undefined, 413);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw parseError();
  }
}

export const parseError = (): RpcError => new RpcError(RpcCode.ParseError, 'Parse error: the body is not valid JSON', undefined, 400);

const isEmptyObject = (v: unknown): boolean => !!v && typeof v === 'object' && Object.keys(v).length === 0;
