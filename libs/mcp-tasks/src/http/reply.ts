import type { ServerResponse } from 'node:http';
import type { RpcError } from '../protocol/rpc.error.js';
import { SSE_HEADERS, sseMessage } from '../protocol/sse.js';

type Id = string | number | null;

/**
 * The answer to one POST: plain JSON, unless a notification about the request (progress) is sent
 * before the result, which turns the reply into an SSE stream scoped to this request.
 */
export class Reply {
  private streaming = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly id: Id,
  ) {}

  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  notify(message: Record<string, unknown>): void {
    if (this.closed) return;
    if (!this.streaming) {
      this.streaming = true;
      this.res.writeHead(200, SSE_HEADERS);
    }
    this.res.write(sseMessage(message));
  }

  result(result: Record<string, unknown>): void {
    this.send(200, { id: this.id, result });
  }

  error(err: RpcError): void {
    this.send(err.httpStatus, { id: this.id, error: err.toJSON() }, err.headers);
  }

  /**
   * Ends the reply with no answer to the request (a client that cancelled it expects none): an SSE stream, as
   * every POSTed request's reply may be, closed with no message for its id.
   */
  withdraw(): void {
    if (this.closed) return;
    if (!this.streaming) this.res.writeHead(200, SSE_HEADERS);
    this.res.end();
  }

  private send(status: number, message: Record<string, unknown>, headers?: Record<string, string>): void {
    if (this.closed) return;
    if (this.streaming) {
      this.res.end(sseMessage(message));
      return;
    }
    const text = JSON.stringify({ jsonrpc: '2.0', ...message });
    this.res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    this.res.end(text);
  }
}

/** A JSON-RPC error answer outside any dispatch (bad JSON, refused host, …). */
export function replyError(res: ServerResponse, id: Id, err: RpcError): void {
  new Reply(res, id).error(err);
}
