import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpContext } from '../common/http-context.interface.js';
import type { Principal } from '../common/principal.interface.js';
import type { RpcError } from '../protocol/rpc.error.js';

/** The answer to one POSTed request: JSON, or SSE once a notification (progress) goes out before it. */
export interface LegacyReply {
  readonly closed: boolean;
  notify(message: Record<string, unknown>): void;
  result(result: Record<string, unknown>): void;
  error(err: RpcError): void;
  /** Ends the reply with no answer to the request (it was cancelled). */
  withdraw(): void;
}

/** One HTTP exchange of the 2025 era as the endpoint read it: the wire code below works from this alone. */
export interface LegacyExchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The platform's request and response (what the app's enhancers read). */
  http: HttpContext;
  /** The parsed JSON body (POST), if any. */
  body: unknown;
  principal: Principal;
  /** The endpoint's reply for a request with this id. */
  reply(id: string | number | null): LegacyReply;
}

/** A POSTed notification or client answer taken: 202, no body. */
export function accepted(res: ServerResponse): void {
  if (res.headersSent) return;
  res.writeHead(202);
  res.end();
}
