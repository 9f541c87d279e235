import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpContext } from '../common/http-context.interface.js';

/**
 * One HTTP request to the endpoint, whatever platform carried it: Node's request and response, which the library
 * reads and writes, and the platform's own objects (`platform`), which the app's enhancers see.
 */
export interface HttpCall {
  /** Node's request; `body` holds what the platform's body parser made of it, if one ran. */
  req: IncomingMessage & { body?: unknown };
  res: ServerResponse;
  platform: HttpContext;
  /** Largest body read when no body parser ran first (the fast path). */
  bodyLimit?: number;
}

/** The part of Fastify's request and reply the endpoint uses (the package itself is never imported). */
export interface FastifyRequestLike {
  raw: IncomingMessage;
  body?: unknown;
}
export interface FastifyReplyLike {
  raw: ServerResponse;
  hijack(): unknown;
  getHeaders(): Record<string, number | string | string[] | undefined>;
}

/**
 * Express (and any platform that hands Node's objects, extended): they are the platform's objects too, or `platform`
 * makes them so.
 */
export const nodeCall = (
  req: IncomingMessage,
  res: ServerResponse,
  bodyLimit?: number,
  platform: HttpContext = { req, res },
): HttpCall => ({ req, res, platform, bodyLimit });

/**
 * Fastify: the endpoint writes Node's response itself (JSON, or an SSE stream that outlives the handler), so the
 * reply is hijacked; headers the app set on the reply (a CORS plugin, a guard's `reply.header`) still go out.
 */
export function fastifyCall(request: FastifyRequestLike, reply: FastifyReplyLike): HttpCall {
  reply.hijack();
  const res = reply.raw;
  const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !res.hasHeader(name)) res.setHeader(name, value);
    }
    return writeHead(...args);
  }) as typeof res.writeHead;
  const req = request.raw as HttpCall['req'];
  if (request.body !== undefined) req.body = request.body;
  return { req, res, platform: { req: request, res: reply } };
}
