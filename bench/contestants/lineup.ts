import { demoToken } from '../../src/demo-token.js';
import { BENCH_JWT_SECRET } from '../support/tokens.js';
import { callJsonTool } from '../load/rpc.js';
import type { Contestant } from './registry.js';
import { startProcess, type BenchOptions, type Running } from './process.js';

/** A contestant that is up, or why it is not. */
export type Started = { ok: true; c: Contestant; run: Running } | { ok: false; c: Contestant; reason: string };

/** What the bench fixture (`bench_stats`) reports about a module process. */
export interface ServerStats {
  pid: number;
  cpu: { user: number; system: number };
  memory: NodeJS.MemoryUsage;
  gc: boolean;
  store: string;
  bus: string;
  /** Events the bus handed the process since it started (its own and those relayed to it). */
  events: number;
}

export const serverStats = (run: Running, token?: string, gc = false) =>
  callJsonTool<ServerStats>(run.client, 'bench_stats', { gc }, { token });

/**
 * Starts a contestant. A module contestant must also prove it runs on the store it was asked for:
 * a demo that ignores MCP_STORE would otherwise be measured under the wrong name.
 */
export async function launch(c: Contestant, o: BenchOptions, log: (line: string) => void): Promise<Started> {
  let run: Running | undefined;
  try {
    run = await startProcess(c.spec, o);
    if (c.auth) c.token = demoToken(run.port, { sub: 'bench', secret: BENCH_JWT_SECRET });
    if (c.expect) {
      const stats = await serverStats(run, c.token);
      const asked = Object.entries(c.spec.env ?? {})
        .filter(([k]) => k === 'MCP_STORE' || k === 'MCP_BUS')
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      if (!c.expect.store.test(stats.store))
        throw new Error(
          `the demo runs on ${stats.store} although ${asked} was set (store env wiring missing from this build?)`,
        );
      if (c.expect.bus && !c.expect.bus.test(stats.bus))
        throw new Error(`the demo relays events on ${stats.bus} although ${asked} was set`);
    }
    log(`  ${c.name}: up (pid ${run.pid}, port ${run.port})`);
    return { ok: true, c, run };
  } catch (err) {
    await run?.stop();
    const reason = (err as Error).message;
    log(`  ${c.name}: NOT RUN — ${reason}`);
    return { ok: false, c, reason };
  }
}
