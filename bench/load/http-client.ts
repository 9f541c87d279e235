import type { OutgoingHttpHeaders } from 'node:http';
import { Pool, errors } from 'undici';

/** One answer: HTTP status, body text, and how long the exchange took (ms). */
export interface Reply {
  status: number;
  body: string;
  ms: number;
}

/**
 * A keep-alive HTTP/1.1 client for one loopback server. Refuses any other host: the bench only ever
 * talks to processes it started on this machine. undici rather than `node:http`: on this bench's 2-core
 * machines the load generator shares the CPU with the server it measures, and `node:http`'s client spent
 * ~140 µs per request where undici spends ~85, which capped the fastest contestants at the generator's pace.
 */
export class LoopbackClient {
  private readonly pool: Pool;

  constructor(
    readonly port: number,
    readonly host = '127.0.0.1',
    sockets = 64,
  ) {
    if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(host))
      throw new Error(`bench targets loopback only (got ${host})`);
    this.pool = new Pool(`http://${host}:${port}`, { connections: sockets, pipelining: 1 });
  }

  /**
   * A request that fails on a reused keep-alive socket (reset, or closed by the server) is sent once more: the
   * server closed that socket as idle just as the request went out and never read it.
   */
  async post(
    path: string,
    headers: OutgoingHttpHeaders,
    body: Buffer,
    timeoutMs = 30_000,
    again = true,
  ): Promise<Reply> {
    const start = performance.now();
    try {
      const res = await this.pool.request({
        path,
        method: 'POST',
        headers: headers as Record<string, string>,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text, ms: performance.now() - start };
    } catch (err) {
      if (again && err instanceof errors.SocketError) return this.post(path, headers, body, timeoutMs, false);
      if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError)
        throw new Error(`no answer within ${timeoutMs} ms`);
      throw err;
    }
  }

  close(): void {
    void this.pool.destroy();
  }
}
