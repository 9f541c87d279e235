import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';

/** An IPv4 address of this machine that is not loopback (a LAN interface), if it has one. */
const lan = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address;

/** Where an app served "beyond loopback" listens: this machine's LAN address, else loopback (see `beyondLoopback`). */
export const OUTSIDE_HOST = lan ?? '127.0.0.1';

/**
 * `app` (listening on `OUTSIDE_HOST`) as supertest's target, reached on a local address that is not loopback — as
 * another machine would reach it. On a machine without a LAN interface each connection reports 192.0.2.1 (TEST-NET)
 * as its local address instead: the server only reads `req.socket.localAddress` to tell.
 */
export function beyondLoopback(app: INestApplication): INestApplication & { port: number } {
  const server = app.getHttpServer() as Server;
  if (!lan) {
    server.prependListener('connection', (socket: Socket) =>
      Object.defineProperty(socket, 'localAddress', { value: '192.0.2.1' }),
    );
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${OUTSIDE_HOST}:${port}`;
  return { getHttpServer: () => url, port } as unknown as INestApplication & { port: number };
}
