import { setTimeout as sleep } from 'node:timers/promises';
import { type BrokerKind, startBroker } from '../support/broker.js';
import { startCluster } from '../support/cluster.js';
import { inPool, query, type RunContext } from '../support/context.js';
import { DURABLE_CAPS, startTask, TERMINAL, until, type DurableArgs } from '../support/durable-calls.js';
import { rpc, sendRaw, type Target } from '../support/http.js';
import { pgLedger } from '../support/ledger.js';
import { logTaskChanges, readTaskLog } from '../support/task-log.js';
import { TaskListen } from '../support/task-listen.js';
import { outcomeLabel } from './bus-probe.js';
import { checkBrokerRestart, type BrokerCase, type CaseKind } from './broker-restart.checks.js';
import { checkInstances } from './load-checks.js';

/** The instances' pollInterval: how often a run re-reads its task, and the bound every catch-up is held to. */
const POLL = 1000;
/** Room for a loaded 2-core box on top of `POLL`. */
const MARGIN = 4000;
/** Owners share the tasks out, each under the demo's limit of live tasks per principal. */
const OWNERS = 12;
const KINDS: CaseKind[] = ['cancel', 'answer', 'finish'];

const argsOf = (k: BrokerCase): DurableArgs =>
  k.kind === 'cancel'
    ? { steps: 60, stepMs: 1000, label: `cancel-${k.i}` }
    : k.kind === 'answer'
      ? { steps: 1, stepMs: 100, ask: true, label: `answer-${k.i}` }
      : // Ends 4 to 11 s after it starts: before, during and after the outage.
        { steps: 1, stepMs: 4000 + (k.i % 8) * 1000, label: `finish-${k.i}` };

/**
 * Two instances on PostgreSQL relaying over Redis or NATS; the broker is killed (SIGKILL) and started again on the
 * same port under load. Hundreds of `rel_durable` tasks, each cancelled, answered or left to finish through the
 * instance that does not run it, and listened to there: every cancel fires the run's signal, every answer reaches
 * the tool, every listener sees every final status — each within pollInterval (and a margin) of the request, the
 * final write or the broker's return, whichever is later — and nothing gets a 5xx.
 */
export function brokerRestart(kind: BrokerKind): (ctx: RunContext) => Promise<void> {
  return async (ctx) => {
    const { report, profile } = ctx;
    const t = report.phase(`${kind}-bus-restart`);
    const broker = await startBroker(kind);
    const listens: TaskListen[] = [];
    try {
      const db = await ctx.database(`${kind}_bus_restart`);
      const env = { ...broker.busEnv, MCP_POLL_INTERVAL: String(POLL) };
      const cluster = await startCluster({ name: `${kind}-bus`, databaseUrl: db, auth: true, env });
      const { instances } = cluster;
      try {
        await logTaskChanges(db);
        const cases: BrokerCase[] = Array.from({ length: profile.brokerTasks }, (_, i) => ({
          i,
          kind: KINDS[i % KINDS.length],
          on: i % 2,
          owner: i % OWNERS,
          go: `go-${i}`,
          id: '',
          token: cluster.token(`owner-${i % OWNERS}`),
        }));
        await inPool(cases, 16, async (k) => {
          k.id = await startTask(instances[k.on], t, 'rel_durable', argsOf(k), k.token);
        });
        const answers = cases.filter((k) => k.kind === 'answer').map((k) => k.id);
        const asking = await until(
          async () => (await countIn(db, answers, ['input_required'])) === answers.length,
          20_000,
        );
        if (!asking) process.stdout.write('  (not every answer task was asking before the outage)\n');
        listens.push(...(await openListens(cases, instances)));
        const driven = cases.filter((k) => k.kind !== 'finish');
        // Requests spread over a window that holds the outage: some before, many during, some after.
        const window = profile.brokerDownMs + 5000;
        const start = Date.now() + 300;
        const restarted = sleep(1500).then(() => broker.restart({ downMs: profile.brokerDownMs, kill: true }));
        await inPool(driven, 16, async (k, n) => {
          await sleep(Math.max(0, start + (n / driven.length) * window - Date.now()));
          const via = instances[1 - k.on];
          const at = Date.now();
          const r =
            k.kind === 'cancel'
              ? await rpc(via, t, 'tasks/cancel', { taskId: k.id }, { caps: DURABLE_CAPS, token: k.token })
              : await rpc(
                  via,
                  t,
                  'tasks/update',
                  { taskId: k.id, inputResponses: { go: { action: 'accept', content: { go: k.go } } } },
                  { caps: DURABLE_CAPS, token: k.token },
                );
          k.sent = { at, ok: r.json?.result?.resultType === 'complete', outcome: outcomeLabel(r) };
        });
        const outage = await restarted;
        const busBack = await busConnected(instances, outage.startedAt);
        const ids = cases.map((k) => k.id);
        const ended = await until(async () => (await countIn(db, ids, TERMINAL)) === ids.length, 40_000);
        // The listeners' catch-up is held to the same bound: give them that long after the last task ended.
        await until(async () => listens.every((l) => l.acknowledged.every((id) => l.finals.has(id))), POLL + MARGIN);
        for (const l of listens) l.close();
        const final = await query<{ id: string; status: string; result: any }>(
          db,
          'SELECT id, status, result FROM mcp_tasks WHERE id = ANY($1)',
          [ids],
        );
        for (const r of final) t.ended(r.status);
        checkBrokerRestart(report, t, {
          cases,
          ledger: await pgLedger(db),
          log: await readTaskLog(db),
          final: new Map(final.map((r) => [r.id, r])),
          listens,
          outage,
          busBack,
          bound: POLL + MARGIN,
          ended,
        });
        checkInstances(report, t, instances);
      } finally {
        for (const l of listens) l.close();
        await cluster.stop();
      }
    } finally {
      await broker.stop();
    }
  };
}

/** How many of `ids` have one of `statuses` in the store. */
async function countIn(db: string, ids: string[], statuses: string[]): Promise<number> {
  const rows = await query<{ n: string }>(
    db,
    'SELECT count(*) AS n FROM mcp_tasks WHERE id = ANY($1) AND status = ANY($2)',
    [ids, statuses],
  );
  return Number(rows[0].n);
}

/** Each task is listened to on the instance that does not run it, by its owner, ≤ 100 ids a listen. */
async function openListens(cases: BrokerCase[], instances: Target[]): Promise<TaskListen[]> {
  const groups = new Map<string, BrokerCase[]>();
  for (const k of cases) {
    const key = `${k.owner}/${1 - k.on}`;
    groups.set(key, [...(groups.get(key) ?? []), k]);
  }
  const opened: TaskListen[] = [];
  await inPool([...groups.values()], 8, async (group) => {
    for (let i = 0; i < group.length; i += 100) {
      const part = group.slice(i, i + 100);
      opened.push(
        await TaskListen.open(
          instances[1 - part[0].on],
          part.map((k) => k.id),
          part[0].token,
        ),
      );
    }
  });
  return opened;
}

/** Ms after `since` until every instance's /health says its bus is connected again; undefined after 30 s. */
async function busConnected(instances: Target[], since: number): Promise<number | undefined> {
  const connected = async () => {
    const replies = await Promise.all(
      instances.map((d) => sendRaw(d, { method: 'GET', path: '/health', headers: {} })),
    );
    return replies.every((r) => r.text.includes('"bus":"connected"'));
  };
  return (await until(connected, 30_000 - (Date.now() - since))) ? Date.now() - since : undefined;
}
