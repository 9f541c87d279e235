import type { Ledger, LedgerRow } from '../support/ledger.js';
import type { Report } from '../support/report.js';
import type { PhaseTally } from '../support/tally.js';
import type { TaskWatch } from '../support/task-watch.js';
import { checkAnswers } from './resume-answers.checks.js';
import { checkTakeover } from './resume-takeover.checks.js';

export type Kind = 'plain' | 'checkpoint' | 'answered' | 'orphan-answer' | 'outstanding' | 'cancelled';

/** One task of the phase: what it is, where it started, and what the phase did and saw. */
export interface KillCase {
  i: number;
  kind: Kind;
  /** Index of the instance it started on (0: the one killed). */
  on: number;
  /** Its answer to `go`. */
  go: string;
  id: string;
  /** Its owner's token. */
  token: string;
  answered?: { ok: boolean; at: number };
  statusAtKill?: string;
  afterTakeover?: { status?: string; asking: string[]; message?: string };
  cancelled?: { ok: boolean; at: number };
}

export interface KillRun {
  cases: KillCase[];
  ledger: Ledger;
  final: Map<string, { status: string; attempt: number; result: any }>;
  /** When each task of the killed instance's lease lapsed (ms). */
  lapse: Map<string, number>;
  killedAt: number;
  /** Each instance's name in the ledger, by index. */
  names: string[];
  watch: TaskWatch;
  lease: number;
  /** The instances' pollInterval: how often each looks for lapsed tasks (at most every lease/2). */
  poll: number;
  steps: number;
  tookOver: boolean;
  ended: boolean;
}

export const rowsOf = (m: Map<string, LedgerRow[]>, k: KillCase): LedgerRow[] => m.get(k.id) ?? [];

/** The checks of `resume-sigkill`, from what the phase gathered. */
export function checkResumeSigkill(report: Report, t: PhaseTally, run: KillRun): void {
  const { cases, ledger, final } = run;
  const rows = rowsOf;
  const resultOf = (k: KillCase): { attempt?: number; instance?: string; from?: number; go?: string } => {
    try {
      return JSON.parse(final.get(k.id)?.result?.content?.[0]?.text ?? '{}');
    } catch {
      return {};
    }
  };
  const resumable = cases.filter((k) => k.kind !== 'cancelled');
  const doomed = resumable.filter((k) => k.on === 0);
  const bad = (list: KillCase[], detail: (k: KillCase) => string) =>
    list.length ? `${list.length} not: ${list.slice(0, 3).map(detail).join('; ')}` : '';

  const notDone = resumable.filter((k) => final.get(k.id)?.status !== 'completed');
  report.check(
    t,
    `every resumable task (${resumable.length}; ${doomed.length} on the killed instance) ended completed`,
    run.ended && notDone.length === 0,
    bad(notDone, (k) => `${k.kind} ${final.get(k.id)?.status}`) || `${resumable.length}/${resumable.length}`,
  );
  const completions = resumable.filter((k) => rows(ledger.completions, k).length !== 1);
  report.check(
    t,
    'exactly one completion row per task',
    completions.length === 0,
    bad(completions, (k) => `${k.kind} ×${rows(ledger.completions, k).length}`),
  );
  const misplaced = resumable.filter((k) => {
    const r = resultOf(k);
    return k.on === 0
      ? r.attempt !== 2 || !run.names.slice(1).includes(r.instance ?? '')
      : r.attempt !== 1 || r.instance !== run.names[k.on];
  });
  report.check(
    t,
    "the killed instance's tasks ended with attempt 2 on another instance, the others' with attempt 1 where they began",
    misplaced.length === 0,
    bad(misplaced, (k) => `${k.kind} on ${k.on}: ${JSON.stringify(resultOf(k))}`),
  );
  const attempts = resumable.filter((k) => {
    const n = final.get(k.id)?.attempt;
    const ran = rows(ledger.attempts, k).map((r) => r.attempt);
    return n !== (k.on === 0 ? 2 : 1) || ran.join() !== (k.on === 0 ? '1,2' : '1');
  });
  report.check(
    t,
    'no task needed more than two attempts (each attempt ran once)',
    run.tookOver && attempts.length === 0,
    bad(attempts, (k) => `${k.kind}: attempt ${final.get(k.id)?.attempt}, ran ${rows(ledger.attempts, k).length}`),
  );
  checkAnswers(report, t, run);
  checkTakeover(report, t, run, doomed);
  const fromZero = doomed.filter((k) => k.kind === 'checkpoint' && !(Number(resultOf(k).from) > 0));
  report.check(
    t,
    `checkpointing tasks of the killed instance (${doomed.filter((k) => k.kind === 'checkpoint').length}) ` +
      'started their second attempt from their checkpoint',
    fromZero.length === 0 && doomed.some((k) => k.kind === 'checkpoint'),
    bad(fromZero, (k) => JSON.stringify(rows(ledger.attempts, k).map((r) => r.detail))) ||
      `from ${doomed
        .filter((k) => k.kind === 'checkpoint')
        .map((k) => resultOf(k).from)
        .join(', ')} of ${run.steps}`,
  );
  const cancelled = cases.filter((k) => k.kind === 'cancelled');
  // All the killed instance's leases were renewed together: the first to lapse is when orphaned time ends.
  const lapsedAt = Math.min(...doomed.map((k) => run.lapse.get(k.id) ?? NaN));
  const resumedAnyway = cancelled.filter(
    (k) =>
      !k.cancelled?.ok ||
      !(k.cancelled.at < lapsedAt) ||
      final.get(k.id)?.status !== 'cancelled' ||
      final.get(k.id)?.attempt !== 1 ||
      rows(ledger.attempts, k).some((r) => r.attempt > 1) ||
      rows(ledger.completions, k).length > 0,
  );
  report.check(
    t,
    `tasks cancelled while orphaned (${cancelled.length}, through another instance, before their lease lapsed) ` +
      'stayed cancelled, never resumed',
    resumedAnyway.length === 0 && cancelled.length > 0,
    bad(
      resumedAnyway,
      (k) =>
        `${final.get(k.id)?.status} attempt ${final.get(k.id)?.attempt} (cancel: ${JSON.stringify(k.cancelled)}, ` +
        `lapse ${lapsedAt})`,
    ),
  );
  const by = new Map<string, number>();
  for (const k of doomed) by.set(resultOf(k).instance ?? '?', (by.get(resultOf(k).instance ?? '?') ?? 0) + 1);
  t.note(
    'tasks (resumable / on the killed instance / cancelled while orphaned)',
    `${resumable.length} / ${doomed.length} / ${cancelled.length}`,
  );
  t.note('taken over by (instance: tasks)', [...by].map(([i, n]) => `${i}: ${n}`).join(', '));
}
