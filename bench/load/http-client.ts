import http from 'node:http';

/** One answer: HTTP status, body text, and how long the exchange took (ms). */
export interface Reply {
  status: number;
  body: string;
  ms: number;
}

/**
 * A keep-alive HTTP/1.1 client for one loopback server. Refuses any other host: the bench only ever
 * talks to processes it started on this machine.
 */
export class LoopbackClient {
  private readonly agent: http.Agent;

  constructor(
    readonly port: number,
    readonly host = '127.0.0.1',
    sockets = 64,
  ) {
    if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(host))
      throw new Error(`bench targets loopback only (got ${host})`);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  }

  /**
   * A request that fails with a reset on a reused keep-alive socket is sent once more on a new one: the server
   * closed that socket as idle just as the request went out (it never read it), as Node's docs describe.
   */
  post(
    path: string,
    headers: http.OutgoingHttpHeaders,
    body: Buffer,
    timeoutMs = 30_000,
    again = true,
  ): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const start = performance.now();
      const req = http.request(
        { host: this.host, port: this.port, path, method: 'POST', headers, agent: this.agent, timeout: timeoutMs },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - start }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (again && req.reusedSocket && err.code === 'ECONNRESET')
          resolve(this.post(path, headers, body, timeoutMs, false));
        else reject(err);
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
