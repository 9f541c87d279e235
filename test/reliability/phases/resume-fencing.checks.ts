import type { Ledger } from '../support/ledger.js';
import type { Report } from '../support/report.js';
import type { PhaseTally } from '../support/tally.js';
import type { Seen } from '../support/task-watch.js';

export interface FencingRun {
  id: string;
  /** The task's row at the end. */
  row?: { status: string; attempt: number; result: any };
  ledger: Ledger;
  /** What a client polling B saw from the takeover on. */
  looks: Seen[];
  lookedAfterContinue: number;
  /** The instances' names in the ledger. */
  a: string;
  b: string;
  tookOver: boolean;
  ended: boolean;
}

/** The checks of `resume-fencing`, from what the phase gathered. */
export function checkFencing(report: Report, t: PhaseTally, run: FencingRun): void {
  const { id, row, ledger, a, b } = run;
  let result: { attempt?: number; instance?: string; from?: number } = {};
  try {
    result = JSON.parse(row?.result?.content?.[0]?.text ?? '{}');
  } catch {
    // Checked below.
  }
  const completions = ledger.completions.get(id) ?? [];
  report.check(
    t,
    "the task ended completed with B's result (attempt 2, from A's checkpoint); one completion row, B's",
    run.tookOver &&
      run.ended &&
      row?.status === 'completed' &&
      row.attempt === 2 &&
      result.attempt === 2 &&
      result.instance === b &&
      Number(result.from) > 0 &&
      completions.length === 1 &&
      completions[0].instance === b,
    `${row?.status} at attempt ${row?.attempt}, result ${JSON.stringify(result)}, completions ` +
      JSON.stringify(completions.map((c) => [c.instance === a ? 'A' : c.instance === b ? 'B' : c.instance, c.attempt])),
  );
  const stops = (ledger.stops.get(id) ?? []).filter((s) => s.instance === a);
  const refused = stops.filter((s) => s.attempt === 1 && /^checkpoint \d+ refused: lease-lost$/.test(s.detail ?? ''));
  report.check(
    t,
    "A's next checkpoint after SIGCONT was refused (lease-lost), and A recorded no completion",
    refused.length === 1 && stops.length === 1 && !completions.some((c) => c.instance === a),
    JSON.stringify(stops.map((s) => s.detail)),
  );
  const fromA = run.looks.filter((s) => s.message?.includes(`on ${a},`) || / attempt 1 /.test(`${s.message} `));
  report.check(
    t,
    "no progress of A's appeared on the task after the takeover (tasks/get on B every 100 ms)",
    fromA.length === 0 && run.lookedAfterContinue > 0,
    fromA.length
      ? JSON.stringify(fromA.slice(0, 2))
      : `${run.looks.length} looks after the takeover, ${run.lookedAfterContinue} after SIGCONT`,
  );
}
