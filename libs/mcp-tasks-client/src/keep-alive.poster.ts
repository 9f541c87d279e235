import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { urlToHttpOptions } from 'node:url';

/** A whole answer to one POST. */
export interface PostReply {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * How long an idle kept-alive socket stays open at most. The agent shortens it to a second under the server's
 * `Keep-Alive: timeout=N`, but only when it has a timeout of its own (Node's `keepSocketAlive`), so one is set.
 */
const IDLE_MS = 30_000;

/**
 * POSTs to one endpoint over a pool of kept-alive connections (`node:http`'s agent, one socket per request in
 * flight), the whole answer read as text. The requests a connection sends itself (`request`) go this way rather
 * than through `fetch`: a relaying gateway sends one per call it forwards, and `fetch` built a request, headers, a
 * stream and a response per call, several times the CPU of this (see bench/results, the gateway profiles).
 */
export class KeepAlivePoster {
  private readonly agent: http.Agent;
  private readonly send: typeof http.request;
  private readonly target: http.RequestOptions;
  private closed = false;

  constructor(endpoint: URL) {
    const tls = endpoint.protocol === 'https:';
    if (!tls && endpoint.protocol !== 'http:') throw new TypeError(`not an http(s) URL: ${endpoint.href}`);
    this.agent = new (tls ? https.Agent : http.Agent)({ keepAlive: true, timeout: IDLE_MS });
    this.send = tls ? https.request : http.request;
    // After `close`, a socket whose request is over is not kept (the agent has just put it in its free list).
    this.agent.on('free', (socket: Socket) => this.closed && socket.destroy());
    const { hostname, port, path, auth } = urlToHttpOptions(endpoint);
    this.target = { hostname, port, path, auth, method: 'POST', agent: this.agent };
  }

  /**
   * The answer, or a rejection: `signal`'s reason once it fires; anything else (refused, reset, cut short) as
   * `fetch` rejects, a `TypeError('fetch failed')` with the cause, so callers that told failures apart by it
   * still do.
   */
  post(headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<PostReply> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const length = Buffer.byteLength(body);
      // Keys before the spread, a key of ours set again after it: object spread followed by new keys takes V8's
      // slow path (~1–3 µs a request in Node 20), storing to a key the object has does not.
      const sized: Record<string, string | number> = { 'content-length': length, ...headers };
      sized['content-length'] = length;
      const req = this.send({ headers: sized, ...this.target });
      const onAbort = () => req.destroy(signal!.reason as Error);
      const fail = (err: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: err }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.once('error', fail);
      req.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('error', fail);
        res.once('close', () => res.complete || fail(new Error('the response was cut short')));
        res.once('end', () => {
          signal?.removeEventListener('abort', onAbort);
          resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, text });
        });
      });
      req.end(body);
    });
  }

  /** Closes the idle sockets now and the others once their request is over (a request under way finishes). */
  close(): void {
    this.closed = true;
    for (const sockets of Object.values(this.agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  }
}
