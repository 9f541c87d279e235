import { ensureBinary } from './debian-package.js';
import { freePort } from './free-port.js';
import { startThrowaway, type ThrowawayServer } from './throwaway-server.js';

/** A throwaway `nats-server` (Debian's `nats-server`, installed when missing and we are root). */
export interface TestNats extends ThrowawayServer {
  /** `nats://127.0.0.1:PORT` */
  url: string;
}

/** Starts a NATS server (core NATS, no JetStream) for one suite on a free loopback port. */
export async function startNats(): Promise<TestNats> {
  const bin = ensureBinary('nats-server', 'nats-server');
  const port = await freePort();
  const server = await startThrowaway('nats-server', bin, ['-a', '127.0.0.1', '-p', String(port)], port, () => {});
  return { ...server, url: `nats://127.0.0.1:${port}` };
}
