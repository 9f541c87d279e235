import { startRedis } from '../../test/support/redis.js';
import type { Ctx } from '../scenarios/context.js';

/** A phase's Redis, or why there is none (its rows then read `not run: …`); `stop()` is safe either way. */
export type BenchRedis = { url: string; stop(): Promise<void> } | { reason: string; stop(): Promise<void> };

/**
 * A throwaway redis-server for one phase (test/support/redis.ts: Debian's package, installed when missing and we are
 * root), on a free port, with the AOF on (docs/stores.md's advice for production) and `appendfsync everysec` (Redis's
 * default with the AOF: each write reaches the file before its reply, the fsync runs once a second in the
 * background). The bench's PostgreSQL runs with fsync off: neither store waits for the disk on a write.
 */
export async function benchRedis(ctx: Ctx): Promise<BenchRedis> {
  try {
    const redis = await startRedis({ appendonly: true, appendfsync: 'everysec' });
    ctx.log(`  Redis at ${redis.url} (AOF, appendfsync everysec)`);
    return redis;
  } catch (err) {
    const reason = `no Redis: ${(err as Error).message}`;
    ctx.log(`  ${reason}`);
    return { reason, stop: async () => undefined };
  }
}
