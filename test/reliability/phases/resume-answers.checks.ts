import type { Report } from '../support/report.js';
import type { PhaseTally } from '../support/tally.js';
import { rowsOf, type KillCase, type KillRun } from './resume-sigkill.checks.js';

const RESUMED_2 = /^Resumed after its instance stopped \(attempt 2 of 3\)/;

/**
 * `resume-sigkill`'s answers: one given before the kill is never asked again (a client watching sees no question
 * `go` after it) and every later attempt got the same answer; one outstanding at the kill is still asked after the
 * takeover, and one given while no instance ran the task reaches the next attempt.
 */
export function checkAnswers(report: Report, t: PhaseTally, run: KillRun): void {
  const { cases, ledger, watch } = run;
  const answersOf = (k: KillCase) => rowsOf(ledger.answers, k);
  const list = (kind: KillCase['kind'], doomed?: boolean) =>
    cases.filter((k) => k.kind === kind && (doomed === undefined || (k.on === 0) === doomed));
  const bad = (l: KillCase[], detail: (k: KillCase) => string) =>
    l.length ? `${l.length} not: ${l.slice(0, 3).map(detail).join('; ')}` : '';

  const answered = list('answered');
  const looks = answered.map((k) => watch.since(k.id, k.answered?.at ?? Infinity));
  const askedAgain = answered.filter((k, n) => !k.answered?.ok || looks[n].some((s) => s.asking.includes('go')));
  report.check(
    t,
    `questions answered before the kill (${answered.length}) were never asked again (tasks/get every 400 ms)`,
    askedAgain.length === 0 && looks.every((l) => l.length > 0),
    bad(askedAgain, (k) => `${k.id.slice(0, 8)} ok=${k.answered?.ok}`) ||
      `${looks.reduce((n, l) => n + l.length, 0)} looks after the answers, none asking go`,
  );
  const doomedAnswered = list('answered', true);
  const sameAnswer = doomedAnswered.filter((k) => {
    const rows = answersOf(k);
    return !rows.some((r) => r.attempt === 2) || rows.some((r) => r.detail !== k.go);
  });
  report.check(
    t,
    `their second attempts (${doomedAnswered.length}) got the same answer at once`,
    sameAnswer.length === 0 && doomedAnswered.length > 0,
    bad(sameAnswer, (k) => JSON.stringify(answersOf(k).map((r) => [r.attempt, r.detail]))),
  );
  const outstanding = [...list('orphan-answer', true), ...list('outstanding', true)];
  const notAsking = outstanding.filter((k) => k.statusAtKill !== 'input_required');
  report.check(
    t,
    `questions outstanding at the kill (${outstanding.length}): their tasks were input_required when it came`,
    notAsking.length === 0 && outstanding.length > 0,
    bad(notAsking, (k) => `${k.kind} ${k.statusAtKill}`),
  );
  const after = list('outstanding', true);
  const lost = after.filter(
    (k) =>
      k.afterTakeover?.status !== 'input_required' ||
      !k.afterTakeover.asking.includes('go') ||
      !RESUMED_2.test(k.afterTakeover.message ?? ''),
  );
  report.check(
    t,
    `still asking after the takeover (${after.length}), status message "Resumed after its instance stopped ` +
      '(attempt 2 of 3)"; answered then, the answer reached attempt 2',
    lost.length === 0 && after.length > 0 && after.every((k) => onlyAt2(answersOf(k), k.go)),
    bad(lost, (k) => JSON.stringify(k.afterTakeover)) ||
      bad(
        after.filter((k) => !onlyAt2(answersOf(k), k.go)),
        (k) => JSON.stringify(answersOf(k)),
      ),
  );
  const orphaned = list('orphan-answer', true);
  const takeoverAt = (k: KillCase) => rowsOf(ledger.attempts, k).find((r) => r.attempt === 2)?.at ?? 0;
  const missed = orphaned.filter(
    (k) => !k.answered?.ok || k.answered.at >= takeoverAt(k) || !onlyAt2(answersOf(k), k.go),
  );
  report.check(
    t,
    `answers given while orphaned (${orphaned.length}, before the takeover) reached attempt 2`,
    missed.length === 0 && orphaned.length > 0,
    bad(missed, (k) => `answered ${k.answered?.at} takeover ${takeoverAt(k)} ${JSON.stringify(answersOf(k))}`),
  );
}

/** One answer row, from attempt 2, with the answer given. */
const onlyAt2 = (rows: Array<{ attempt: number; detail: string | null }>, go: string): boolean =>
  rows.length === 1 && rows[0].attempt === 2 && rows[0].detail === go;
