import type { ClientErrors, SeenTask } from '../load/deploy-client.js';
import { query } from '../support/context.js';
import { readHistories, type Handover } from '../support/handovers.js';
import type { Report } from '../support/report.js';
import type { Restart } from '../support/rolling-restart.js';
import type { Rotation } from '../support/rotation.js';
import type { PhaseTally } from '../support/tally.js';
import { checkInstances } from './load-checks.js';

const MAX_ATTEMPTS = 3;

export interface DeployRun {
  db: string;
  tasks: SeenTask[];
  restarts: Restart[];
  lb: Rotation;
  errors: ClientErrors;
  lease: number;
  graceMs: number;
  /** The instances' pollInterval: a released task is resumed on another instance's next look, within it. */
  poll: number;
}

/** Scheduling slack on a shared 2-core box, on top of the resumer's period. */
const MARGIN = 1500;

const pct = (xs: number[], p: number): number =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] : NaN;
const p50max = (xs: number[]): string => `${pct(xs, 50)} / ${pct(xs, 100)} ms (n ${xs.length})`;
const first = (xs: string[]): string => (xs.length ? `: ${xs.slice(0, 3).join(' | ')}` : '');

/** What the clients saw, what the store and the ledger hold, and how the instances went and came. */
export async function checkRollingDeploy(report: Report, t: PhaseTally, run: DeployRun): Promise<void> {
  const { tasks, errors, lease } = run;
  const errorCount = [...errors.values()].reduce((n, e) => n + e.count, 0);
  const shown = [...errors.entries()].map(([k, e]) => `${k} ×${e.count}: ${e.examples.join(' | ')}`);
  report.check(
    t,
    'zero client errors: every tools/call answered with a task, every tasks/get with the task (no JSON-RPC error, ' +
      'no HTTP error, no connection lost)',
    errorCount === 0 && t.fiveXx === 0,
    `${errorCount} errors, 5xx ${t.fiveXx}, retried by the balancer (refused after leaving rotation) ` +
      `${run.lb.retried}${shown.length ? `\n    ${shown.join('\n    ')}` : ''}`,
  );
  const ids = tasks.flatMap((s) => (s.id ? [s.id] : []));
  const notCompleted = tasks.filter((s) => s.status !== 'completed');
  report.check(
    t,
    'every task ended completed as its client read it: 0 failed, 0 cancelled',
    ids.length === tasks.length && notCompleted.length === 0,
    `${tasks.length - notCompleted.length}/${tasks.length} completed` +
      first(notCompleted.map((s) => `${s.label} ${s.id}: ${s.status} ${JSON.stringify(s.error ?? '')}`)),
  );
  const histories = await readHistories(run.db, ids);
  const [{ n: stored }] = await query<{ n: number }>(run.db, 'SELECT count(*)::int AS n FROM mcp_tasks');
  const storeWrong = histories.filter((h) => h.status !== 'completed');
  report.check(
    t,
    'the store holds every task completed, and no other task',
    storeWrong.length === 0 && stored === ids.length,
    `${stored} rows for ${ids.length} tasks` + first(storeWrong.map((h) => `${h.id}: ${h.status}`)),
  );
  const resultAttempt = (s: SeenTask) => JSON.parse(s.result?.content?.[0]?.text ?? '{}').attempt as unknown;
  const byId = new Map(tasks.map((s) => [s.id, s]));
  const badEnd = histories.filter(
    (h) =>
      h.completions.length !== 1 ||
      h.completions[0].attempt !== h.attempt ||
      resultAttempt(byId.get(h.id)!) !== h.attempt,
  );
  report.check(
    t,
    'one rel_completions row per task, written by its last attempt, the attempt its result names',
    badEnd.length === 0 && histories.length === ids.length,
    `${histories.length - badEnd.length}/${histories.length}` +
      first(badEnd.map((h) => `${h.id}: ${JSON.stringify(h.completions)} at attempt ${h.attempt}`)),
  );
  const badRuns = histories.filter(
    (h) =>
      h.attempt! > MAX_ATTEMPTS ||
      h.attempts.map((a) => a.attempt).join() !== Array.from({ length: h.attempt ?? 0 }, (_, i) => i + 1).join() ||
      h.handovers.some((o) => o.from === o.to),
  );
  report.check(
    t,
    `each task's attempts began once each, 1 to its last (≤ ${MAX_ATTEMPTS}), each on another instance than the last`,
    badRuns.length === 0,
    first(badRuns.map((h) => `${h.id}: ${h.attempts.map((a) => `${a.attempt}@${a.instance}`).join(' ')}`)),
  );
  const handovers = histories.flatMap((h) => h.handovers);
  checkHandovers(report, t, run, handovers);
  const checkpointing = new Map(tasks.map((s) => [s.id, s.checkpoint]));
  const badFrom = handovers.filter((o) =>
    checkpointing.get(o.taskId) ? !(o.fromStep >= Math.max(1, o.previousStep)) : o.fromStep !== 0,
  );
  report.check(
    t,
    'a later attempt of a checkpointing task began from its checkpoint (no step it had reported lost), of another ' +
      'task from the start',
    badFrom.length === 0,
    `${handovers.length - badFrom.length}/${handovers.length}` +
      first(badFrom.map((o) => `${o.taskId} attempt ${o.attempt}: from ${o.fromStep}, had reported ${o.previousStep}`)),
  );
  const silences = histories.map((h) => h.longestSilence);
  const gaps = handovers.map((o) => o.started - o.lastSign);
  t.note('longest time without a running attempt, per task (p50 / max)', p50max(silences));
  t.note('hand-over: last sign of the stopped attempt → next attempt began (p50 / max)', p50max(gaps));
  report.check(
    t,
    `no task without a running attempt for longer than the lease (${lease} ms): the longest time between two signs ` +
      'one ran (its creation, an attempt beginning, a progress write every step, its end), from the store and ledger',
    silences.length === ids.length && pct(silences, 100) <= lease,
    `longest ${pct(silences, 100)} ms` +
      first(histories.filter((h) => h.longestSilence > lease).map((h) => `${h.id}: ${h.longestSilence} ms`)),
  );
  checkRestarts(report, t, run, handovers);
}

/** Each later attempt came from a shutdown's release, at once. */
function checkHandovers(report: Report, t: PhaseTally, run: DeployRun, handovers: Handover[]): void {
  const sigterm = new Map(run.restarts.map((r) => [r.old.name, r.sigtermAt]));
  const fromShutdown = (o: Handover) =>
    sigterm.has(o.from) && o.released !== undefined && o.released >= sigterm.get(o.from)! && o.released <= o.started;
  const lapsed = handovers.filter((o) => !fromShutdown(o));
  report.check(
    t,
    'every later attempt followed the release of the last one by its SIGTERMed instance (none waited for a lease)',
    lapsed.length === 0,
    `${handovers.length - lapsed.length}/${handovers.length}` +
      first(lapsed.map((o) => `${o.taskId} attempt ${o.attempt} from ${o.from}: released ${o.released}`)),
  );
  const counts = [2, 3].map((n) => handovers.filter((o) => o.attempt === n).length);
  t.note('hand-overs to attempt 2 / attempt 3', `${counts[0]} / ${counts[1]}`);
  t.note(
    'SIGTERM → next attempt began (p50 / max)',
    p50max(handovers.filter((o) => sigterm.has(o.from)).map((o) => o.started - sigterm.get(o.from)!)),
  );
  const afterRelease = handovers.filter((o) => o.released !== undefined).map((o) => o.started - o.released!);
  t.note('lease released → next attempt began (p50 / max)', p50max(afterRelease));
  const bound = Math.min(run.poll, run.lease / 2) + MARGIN;
  report.check(
    t,
    `every released task's next attempt began within pollInterval + ${MARGIN} ms (${bound} ms) of the release`,
    afterRelease.length > 0 && afterRelease.every((ms) => ms <= bound),
    p50max(afterRelease),
  );
}

/** Each old instance drained, handed over running tasks and exited on SIGTERM; the new ones stayed up. */
function checkRestarts(report: Report, t: PhaseTally, run: DeployRun, handovers: Handover[]): void {
  for (const r of run.restarts) {
    const moved = handovers.filter((o) => o.from === r.old.name).length;
    t.note(
      `${r.old.name} → ${r.replacement.name}`,
      `drained ${r.drainedMs} ms, SIGTERM → exit ${r.exitMs ?? 'killed'} ms, replacement healthy after ` +
        `${r.healthyMs} ms, ${moved} tasks handed over`,
    );
    report.check(
      t,
      `${r.old.name}: out of rotation with nothing in flight, handed running tasks over, exited on SIGTERM within ` +
        `shutdownGrace + 10 s`,
      r.stillInFlight === 0 && moved > 0 && r.exitMs !== undefined && r.old.unhandled.length === 0,
      `${r.stillInFlight} in flight, ${moved} handed over, exit ${r.exitMs ?? 'none: killed'}` + first(r.old.unhandled),
    );
  }
  checkInstances(
    report,
    t,
    run.restarts.map((r) => r.replacement),
  );
  const logged = run.restarts
    .flatMap((r) => [r.old, r.replacement])
    .flatMap((d) => d.errorLines.map((l) => `${d.name}: ${l.slice(0, 200)}`));
  report.check(t, 'no instance logged an ERROR line through the deploy', logged.length === 0, first(logged));
}
