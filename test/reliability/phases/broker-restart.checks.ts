import type { Ledger, LedgerRow } from '../support/ledger.js';
import type { Report } from '../support/report.js';
import type { PhaseTally } from '../support/tally.js';
import type { TaskListen } from '../support/task-listen.js';
import type { TaskLogRow } from '../support/task-log.js';

export type CaseKind = 'cancel' | 'answer' | 'finish';

/** One task of a broker-restart phase: what it is, where it runs, and what was sent through the other instance. */
export interface BrokerCase {
  i: number;
  kind: CaseKind;
  /** Index of the instance that runs it (the other one takes its cancel or answer, and its listen). */
  on: number;
  owner: number;
  go: string;
  id: string;
  token: string;
  sent?: { at: number; ok: boolean; outcome: string };
}

export interface BrokerRun {
  cases: BrokerCase[];
  ledger: Ledger;
  log: Map<string, TaskLogRow[]>;
  final: Map<string, { status: string; result: any }>;
  listens: TaskListen[];
  /** When the broker was killed, and when it accepted connections again. */
  outage: { stoppedAt: number; startedAt: number };
  /** Ms after the broker was back until both instances' buses said connected. */
  busBack?: number;
  /** pollInterval plus the margin: how late after the later of the request (or final write) and the return. */
  bound: number;
  ended: boolean;
}

const TERMINAL = ['completed', 'failed', 'cancelled'];

/** The checks of a broker-restart phase, from what it gathered. */
export function checkBrokerRestart(report: Report, t: PhaseTally, run: BrokerRun): void {
  const { cases, ledger, outage, bound } = run;
  const back = outage.startedAt;
  const during = (at: number) => at >= outage.stoppedAt && at <= back;
  const first = (m: Map<string, LedgerRow[]>, k: BrokerCase, match: (r: LedgerRow) => boolean) =>
    (m.get(k.id) ?? []).find(match);
  const bad = (list: string[]) => (list.length ? `${list.length}: ${list.slice(0, 4).join(' | ')}` : '');
  const rel = (at: number) =>
    (at >= back ? `${at - back} ms after` : `${back - at} ms before`) + ' the broker was back';
  t.note('broker down (killed → accepting again)', `${back - outage.stoppedAt} ms`);
  t.note('buses connected again (/health)', run.busBack === undefined ? 'not in 30 s' : `${run.busBack} ms after`);

  const driven = cases.filter((k) => k.kind !== 'finish');
  const sentDuring = driven.filter((k) => k.sent && during(k.sent.at)).length;
  const refused = driven.filter((k) => !k.sent?.ok).map((k) => `${k.kind} ${k.id}: ${k.sent?.outcome ?? 'not sent'}`);
  report.check(
    t,
    `every cancel and answer through the other instance was taken, ${sentDuring} of them while the broker was down` +
      ' (no 5xx, no dropped connection)',
    refused.length === 0 && sentDuring > 0 && t.fiveXx === 0 && t.transportErrors === 0,
    bad(refused) || `${driven.length} requests; 5xx ${t.fiveXx}, no answer ${t.transportErrors}`,
  );

  // Each piece of evidence, and the time it may come by: the later of its cause and the broker's return, + bound.
  const lateness = (
    kind: CaseKind,
    evidence: (k: BrokerCase) => LedgerRow | undefined,
    ok: (k: BrokerCase) => boolean,
  ) => {
    const list = cases.filter((k) => k.kind === kind);
    const wrong: string[] = [];
    const latency: number[] = [];
    for (const k of list) {
      const row = evidence(k);
      const sentAt = k.sent?.at ?? Infinity;
      if (row) latency.push(row.at - sentAt);
      if (!row || !ok(k))
        wrong.push(`${k.id} sent ${rel(sentAt)}: ${row ? 'ended' : 'never'} ${run.final.get(k.id)?.status}`);
      else if (row.at > Math.max(sentAt, back) + bound)
        wrong.push(`${k.id} sent ${rel(sentAt)}, took effect ${rel(row.at)}`);
    }
    t.note(`${kind}: request → the tool saw it (ms, p50 / max)`, spread(latency));
    return { list, wrong };
  };
  const cancels = lateness(
    'cancel',
    (k) => first(ledger.stops, k, (r) => (r.detail ?? '').startsWith('stopped at')),
    (k) => run.final.get(k.id)?.status === 'cancelled',
  );
  report.check(
    t,
    `every cancel (${cancels.list.length}) fired the run's signal on the instance running it, within ` +
      `${bound} ms of the request or the broker's return, and the task ended cancelled`,
    cancels.wrong.length === 0 && cancels.list.length > 0,
    bad(cancels.wrong),
  );
  const answers = lateness(
    'answer',
    (k) => first(ledger.answers, k, (r) => r.detail === k.go),
    (k) => resultGo(run.final.get(k.id)) === k.go && (ledger.completions.get(k.id) ?? []).length === 1,
  );
  report.check(
    t,
    `every answer (${answers.list.length}) reached its tool on the instance running it, within ${bound} ms of ` +
      "the request or the broker's return; each task completed once with that answer",
    answers.wrong.length === 0 && answers.list.length > 0,
    bad(answers.wrong),
  );
  const finished = cases.filter((k) => k.kind === 'finish' && run.final.get(k.id)?.status !== 'completed');
  report.check(
    t,
    'every task left to finish completed',
    run.ended && finished.length === 0,
    bad(finished.map((k) => `${k.id}: ${run.final.get(k.id)?.status}`)),
  );

  const heard = new Map<string, { at: number; status: string }>();
  const ackedAt = new Map<string, number>();
  for (const l of run.listens) {
    for (const [id, f] of l.finals) heard.set(id, f);
    for (const id of l.acknowledged) ackedAt.set(id, l.acknowledgedAt);
  }
  const missed: string[] = [];
  const delays: number[] = [];
  let endedDuring = 0;
  let endedBefore = 0;
  for (const k of cases) {
    const written = (run.log.get(k.id) ?? []).find((r) => r.kind === 'written' && TERMINAL.includes(r.status));
    if (written && during(written.at)) endedDuring++;
    const got = heard.get(k.id);
    const status = run.final.get(k.id)?.status;
    // Final before its listen was acknowledged: the listen may have read it final, and then sends nothing of it.
    if (written && written.at <= (ackedAt.get(k.id) ?? Infinity) && (!got || got.status === status)) {
      endedBefore++;
      continue;
    }
    if (got && written) delays.push(got.at - Math.max(written.at, back));
    if (!written || !got || got.status !== status)
      missed.push(
        `${k.kind} ${k.id} ${status} (written ${written ? rel(written.at) : 'never'}): ` +
          `heard ${got?.status ?? 'nothing'}`,
      );
    else if (got.at > Math.max(written.at, back) + bound)
      missed.push(`${k.kind} ${k.id} ${status} written ${rel(written.at)}, heard ${rel(got.at)}`);
  }
  t.note('listeners: final status heard after max(final write, broker back) (ms, p50 / max)', spread(delays));
  t.note('tasks already final when their listen was acknowledged (not expected to be notified)', endedBefore);
  const unacked = run.listens.reduce((n, l) => n + l.taskIds.length - l.acknowledged.length, 0);
  const early = run.listens.filter((l) => l.endedEarly).map((l) => l.endedEarly!);
  report.check(
    t,
    `every listener on the other instance (${run.listens.length} listens) heard every final status ` +
      `(${cases.length - endedBefore} tasks, ${endedDuring} ended while the broker was down) within ${bound} ms ` +
      "of the final write or the broker's return",
    missed.length === 0 && unacked === 0 && early.length === 0 && endedDuring > 0,
    bad(missed) || (unacked || early.length ? `not acknowledged ${unacked}; ended early: ${early[0]}` : ''),
  );
  report.check(
    t,
    'both instances report their bus connected again',
    run.busBack !== undefined,
    `${run.busBack ?? 'never'} ms after the broker was back`,
  );
}

const resultGo = (row: { result: any } | undefined): string | undefined => {
  try {
    return JSON.parse(row?.result?.content?.[0]?.text ?? '{}').go;
  } catch {
    return undefined;
  }
};

const spread = (values: number[]): string => {
  if (!values.length) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[Math.floor(sorted.length / 2)]} / ${sorted[sorted.length - 1]}`;
};
