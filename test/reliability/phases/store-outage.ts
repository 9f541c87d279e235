import { setTimeout as sleep } from 'node:timers/promises';
import { LoadClient, type LoadShared } from '../load/client.js';
import type { RunContext } from '../support/context.js';
import { startCluster } from '../support/cluster.js';
import { clusterStore, type ClusterStore, type StoreKind } from '../support/cluster-store.js';
import type { PhaseTally } from '../support/tally.js';
import { outcomeLabel, probeBusWake } from './bus-probe.js';
import { checkInstances, reportProblems } from './load-checks.js';

/** The server's own poll is long, so a wake faster than this came through the event bus. */
const SERVER_POLL = 5000;

/**
 * The store restarted under load on two instances: PostgreSQL (pg_ctl -m fast, same data and port; the run's shared
 * server) or Redis, store and bus (SIGKILL, AOF on, same port). Promise: a request sent during the outage either
 * gets a JSON-RPC error the client can retry or succeeds and takes effect; retrying after the outage, each client
 * drives every task to the end it chose; the instances stay up and reconnect (store and bus); nothing is lost or
 * stuck.
 */
export function storeOutage(kind: StoreKind): (ctx: RunContext) => Promise<void> {
  return async (ctx) => {
    const store = await clusterStore(ctx, kind, kind === 'postgres' ? 'outage' : `outage_${kind}`, {
      appendonly: true,
    });
    try {
      await run(ctx, store);
    } finally {
      await store.stop();
    }
  };
}

async function run(ctx: RunContext, store: ClusterStore): Promise<void> {
  const { report, profile } = ctx;
  const t = report.phase(store.kind === 'postgres' ? 'pg-restart' : `${store.kind}-restart`);
  const cluster = await startCluster({
    name: store.kind === 'postgres' ? 'outage' : `outage-${store.kind}`,
    databaseUrl: store.databaseUrl,
    auth: true,
    env: { ...store.env, MCP_POLL_INTERVAL: String(SERVER_POLL) },
  });
  const restart = (downMs: number) =>
    store.redis ? store.redis.restart({ downMs, kill: true }) : ctx.pg.restart({ downMs });
  const what = store.kind === 'postgres' ? 'PostgreSQL' : 'Redis';
  const [a, b] = cluster.instances;
  let window = { from: Infinity, to: Infinity };
  const during = new Map<string, number>();
  try {
    const before = await probeBusWake(a, b, cluster.token('probe'), t);
    t.note('bus wake before the outage (answer on B → task on A resumes)', `${before} ms`);
    const shared: LoadShared = {
      targets: [a, b],
      tally: t,
      until: Date.now() + 8000 + profile.outageMs,
      stuckMs: 30_000 + profile.outageMs,
      live: new Map(),
      attackRate: 0,
      problems: new Map(),
      retries: 0,
      pollMs: 300,
      // Retry while an instance is up to answer, until a minute after the run.
      retryUntil: () => (a.alive || b.alive ? shared.until + 60_000 : 0),
      onReply: (sentAt, method, r) => {
        if (sentAt < window.from || sentAt > window.to) return;
        const k = `${method} → ${outcomeLabel(r)}`;
        during.set(k, (during.get(k) ?? 0) + 1);
      },
    };
    const clients = Array.from(
      { length: profile.outageClients },
      (_, i) => new LoadClient(i, cluster.token(`user-${i}`), shared),
    );
    const running = Promise.all(clients.map((c) => c.run()));
    await sleep(3000);
    window = { from: Date.now(), to: Infinity };
    const { stoppedAt, startedAt } = await restart(profile.outageMs);
    window = { from: window.from, to: startedAt };
    t.note(
      `${what} down (stop called → accepting again)`,
      `${startedAt - window.from} ms (stopped after ${stoppedAt - window.from} ms)`,
    );
    const busBack = await waitForBus(a, b, cluster.token('probe'), t, startedAt);
    t.note(`bus relays again after ${what} is back`, busBack === undefined ? 'never (60 s)' : `${busBack} ms`);
    await running;
    t.note(
      'requests sent during the outage, by outcome',
      [...during.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${k} ×${v}`)
        .join('; ') || 'none',
    );
    t.note('requests retried by clients', shared.retries);
    const bad = [...during.keys()].filter((k) => !/→ (ok|-3\d+)$/.test(k));
    report.check(
      t,
      'every request sent during the outage succeeded or got a JSON-RPC error to retry' +
        ' (no hang, no 5xx, no dropped connection)',
      bad.length === 0 && during.size > 0,
      bad.join('; ') || `${[...during.values()].reduce((x, y) => x + y, 0)} requests`,
    );
    report.check(
      t,
      'the event bus reconnected (a cross-instance answer wakes the task faster than the server poll)',
      busBack !== undefined,
      `${busBack ?? 'never'} ms after ${what} was back`,
    );
    const live = (await store.view.all()).filter((r) => r.status === 'working' || r.status === 'input_required').length;
    t.stuck += live;
    report.check(t, 'no task left working or input_required', live === 0, `${live}`);
    reportProblems(
      report,
      t,
      shared,
      {
        protocol: 'after retries, no request failed for good',
        ended:
          'retrying after the outage, every task ended as its user drove it' +
          ' (answers and cancels sent during the outage took effect)',
        keys: 'no input key asked again after it was answered',
      },
      { unansweredOk: true },
    );
    checkInstances(report, t, [a, b]);
  } finally {
    await cluster.stop();
  }
}

/** Probes until a cross-instance answer is relayed by the bus again; ms after `since`, or undefined. */
async function waitForBus(
  a: LoadShared['targets'][number],
  b: LoadShared['targets'][number],
  token: string,
  t: PhaseTally,
  since: number,
): Promise<number | undefined> {
  while (Date.now() - since < 60_000) {
    const ms = await probeBusWake(a, b, token, t).catch(() => undefined);
    if (ms !== undefined && ms < SERVER_POLL / 2) return Date.now() - since;
    await sleep(500);
  }
  return undefined;
}
