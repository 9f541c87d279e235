import type { Report } from '../support/report.js';
import type { PhaseTally } from '../support/tally.js';
import { rowsOf, type KillCase, type KillRun } from './resume-sigkill.checks.js';

/** Scheduling slack on a shared 2-core box, on top of the resumer's period. */
const MARGIN = 1500;

/**
 * `resume-sigkill`'s timing: each task of the killed instance was taken over after its lease lapsed (never before)
 * and within the resumer's period (pollInterval, at most lease/2) plus a margin of it, so within lease +
 * pollInterval + margin of the kill: the issue's bound.
 * The takeover is when attempt 2 started (its ledger row).
 */
export function checkTakeover(report: Report, t: PhaseTally, run: KillRun, doomed: KillCase[]): void {
  const { lease } = run;
  const period = Math.min(run.poll, lease / 2);
  const timed = doomed.map((k) => {
    const at = rowsOf(run.ledger.attempts, k).find((r) => r.attempt === 2)?.at ?? NaN;
    return { k, afterLapse: at - (run.lapse.get(k.id) ?? NaN), afterKill: at - run.killedAt };
  });
  const early = timed.filter((x) => !(x.afterLapse >= 0));
  const late = timed.filter((x) => !(x.afterLapse <= period + MARGIN && x.afterKill <= lease + period + MARGIN));
  const afterLapse = timed.map((x) => x.afterLapse).sort((a, b) => a - b);
  const afterKill = timed.map((x) => x.afterKill).sort((a, b) => a - b);
  const p = (l: number[], q: number) => l[Math.min(l.length - 1, Math.floor(q * l.length))];
  t.note('takeover after the lease lapsed (ms, p50 / max)', `${p(afterLapse, 0.5)} / ${afterLapse.at(-1)}`);
  t.note('takeover after the kill (ms, p50 / max)', `${p(afterKill, 0.5)} / ${afterKill.at(-1)}`);
  report.check(
    t,
    'no task was taken over before its lease lapsed',
    early.length === 0 && timed.length > 0,
    early
      .map((x) => `${x.k.id.slice(0, 8)} ${x.afterLapse} ms`)
      .slice(0, 3)
      .join('; '),
  );
  report.check(
    t,
    `every task was taken over within pollInterval + ${MARGIN} ms of its lease lapsing, lease ${lease} ms, ` +
      `pollInterval ${period} ms (within lease + pollInterval + ${MARGIN} = ${lease + period + MARGIN} ms of the kill)`,
    late.length === 0 && timed.length > 0,
    `after the lapse p50 ${p(afterLapse, 0.5)} max ${afterLapse.at(-1)} ms; after the kill p50 ` +
      `${p(afterKill, 0.5)} max ${afterKill.at(-1)} ms` +
      (late.length ? `; late: ${late.length}` : ''),
  );
}
