import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBinary } from './debian-package.js';
import { freePort } from './free-port.js';
import { startThrowaway, type ThrowawayServer } from './throwaway-server.js';

/** A throwaway `redis-server` (Debian's `redis-server`, installed when missing and we are root). */
export interface TestRedis extends ThrowawayServer {
  /** `redis://127.0.0.1:PORT` */
  url: string;
}

/**
 * Starts a Redis server for one suite on a free loopback port, its files in a temp dir. `appendonly: true` turns
 * on the AOF (fsync every write, or once a second with `appendfsync: 'everysec'`), so a `restart()` keeps the data
 * as a durable deployment would; without it a restart empties the server.
 */
export async function startRedis(
  options: { appendonly?: boolean; appendfsync?: 'always' | 'everysec' } = {},
): Promise<TestRedis> {
  const bin = ensureBinary('redis-server', 'redis-server');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no'];
  if (options.appendonly) args.push('--appendonly', 'yes', '--appendfsync', options.appendfsync ?? 'always');
  else args.push('--appendonly', 'no');
  const server = await startThrowaway('redis-server', bin, args, port, () =>
    rmSync(dir, { recursive: true, force: true }),
  );
  return { ...server, url: `redis://127.0.0.1:${port}` };
}
