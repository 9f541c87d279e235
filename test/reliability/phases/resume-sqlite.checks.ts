import type { Ledger } from '../support/ledger.js';
import type { Report } from '../support/report.js';
import type { PhaseTally } from '../support/tally.js';

export interface SqliteCase {
  kind: 'plain' | 'checkpoint' | 'answered' | 'outstanding';
  go: string;
  id: string;
  answeredOk?: boolean;
  afterRestart?: { status?: string; asking: string[]; message?: string };
}

export interface SqliteRun {
  cases: SqliteCase[];
  /** Every task as `tasks/get` showed it at its end. */
  final: Map<string, any>;
  /** The `slow_compute` tasks (not resumable). */
  plain: string[];
  ledger: Ledger;
  killedAt: number;
  /** When the restarted instance accepted connections. */
  restartedAt: number;
  /** The restarted instance's name in the ledger. */
  restartedAs: string;
  lease: number;
  /** The instance's pollInterval: how often it looks for lapsed tasks (at most every lease/2). */
  poll: number;
}

const RESUMED_2 = /^Resumed after its instance stopped \(attempt 2 of 3\)/;
/** Scheduling slack on a shared 2-core box, on top of the lease and the resumer's period. */
const MARGIN = 1500;

/** The checks of `resume-sqlite`, from what the phase gathered. */
export function checkResumeSqlite(report: Report, t: PhaseTally, run: SqliteRun): void {
  const { cases, final, ledger } = run;
  const rows = (m: Map<string, Array<{ attempt: number; detail: string | null; at: number }>>, id: string) =>
    m.get(id) ?? [];
  const resultOf = (id: string): { attempt?: number; instance?: string; from?: number; go?: string } => {
    try {
      return JSON.parse(final.get(id)?.result?.content?.[0]?.text ?? '{}');
    } catch {
      return {};
    }
  };
  const bad = (l: SqliteCase[], detail: (k: SqliteCase) => string) =>
    l.length ? `${l.length} not: ${l.slice(0, 3).map(detail).join('; ')}` : '';

  const wrong = cases.filter((k) => {
    const r = resultOf(k.id);
    return (
      final.get(k.id)?.status !== 'completed' ||
      r.attempt !== 2 ||
      r.instance !== run.restartedAs ||
      rows(ledger.completions, k.id).length !== 1 ||
      rows(ledger.attempts, k.id)
        .map((a) => a.attempt)
        .join() !== '1,2'
    );
  });
  report.check(
    t,
    `every resumable task (${cases.length}) ran again on the restarted instance (attempt 2) and completed, ` +
      'one completion row each',
    wrong.length === 0,
    bad(wrong, (k) => `${k.kind} ${final.get(k.id)?.status} ${JSON.stringify(resultOf(k.id))}`),
  );
  const lostAnswers = cases.filter(
    (k) =>
      (k.kind === 'answered' || k.kind === 'outstanding') &&
      (!k.answeredOk ||
        resultOf(k.id).go !== k.go ||
        !rows(ledger.answers, k.id).some((a) => a.attempt === 2) ||
        rows(ledger.answers, k.id).some((a) => a.detail !== k.go)),
  );
  const notAsking = cases.filter(
    (k) =>
      k.kind === 'outstanding' &&
      (k.afterRestart?.status !== 'input_required' ||
        !k.afterRestart.asking.includes('go') ||
        !RESUMED_2.test(k.afterRestart.message ?? '')),
  );
  report.check(
    t,
    'answers given before the kill came back to attempt 2; questions outstanding at the kill were still asked ' +
      'after the restart ("Resumed after its instance stopped (attempt 2 of 3)") and their answers reached attempt 2',
    lostAnswers.length === 0 && notAsking.length === 0,
    bad(lostAnswers, (k) => JSON.stringify(rows(ledger.answers, k.id))) ||
      bad(notAsking, (k) => JSON.stringify(k.afterRestart)),
  );
  const checkpointing = cases.filter((k) => k.kind === 'checkpoint');
  const fromZero = checkpointing.filter((k) => !(Number(resultOf(k.id).from) > 0));
  report.check(
    t,
    `checkpointing tasks (${checkpointing.length}) started attempt 2 from their checkpoint`,
    fromZero.length === 0 && checkpointing.length > 0,
    bad(fromZero, (k) => JSON.stringify(resultOf(k.id))) ||
      `from ${checkpointing.map((k) => resultOf(k.id).from).join(', ')}`,
  );
  const interrupted = run.plain.filter(
    (id) => final.get(id)?.status === 'failed' && /interrupted/.test(final.get(id)?.error?.message ?? ''),
  );
  report.check(
    t,
    `plain (not resumable) slow_compute tasks (${run.plain.length}) ended failed "interrupted", as before`,
    interrupted.length === run.plain.length && run.plain.length > 0,
    `${interrupted.length}/${run.plain.length}` +
      (interrupted.length < run.plain.length ? ` ${JSON.stringify(final.get(run.plain[0]))}`.slice(0, 300) : ''),
  );
  const starts = cases
    .map((k) => rows(ledger.attempts, k.id).find((a) => a.attempt === 2)?.at ?? NaN)
    .sort((a, b) => a - b);
  const slowest = starts.at(-1)! - run.restartedAt;
  t.note('restart took (ms, kill to accepting connections)', run.restartedAt - run.killedAt);
  t.note('attempt 2 started after the restart (ms, first / last)', `${starts[0] - run.restartedAt} / ${slowest}`);
  report.check(
    t,
    `every resumable task resumed within lease + pollInterval + ${MARGIN} ms of the restart (lease ${run.lease} ms, ` +
      `pollInterval ${run.poll} ms)`,
    slowest <= run.lease + Math.min(run.poll, run.lease / 2) + MARGIN,
    `last after ${slowest} ms`,
  );
}
