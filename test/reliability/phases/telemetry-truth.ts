import { setTimeout as sleep } from 'node:timers/promises';
import type { DemoProcess } from '../support/demo-process.js';
import type { Report } from '../support/report.js';
import type { StoreView } from '../support/store-view.js';
import type { PhaseTally } from '../support/tally.js';

type Stop = { status: string; isError: boolean; count: number };
type Row = { id: string; status: string; isError: boolean };

/**
 * Telemetry truth: every task's `mcp.task.stop` (recorded by the instance that ran it) carries the status the
 * task ended with in the store, and its `isError`; one stop per task. Polled for a while: a stop is emitted
 * once the run's outcome is written, which may trail the status a client saw.
 */
export async function checkStopEvents(
  report: Report,
  t: PhaseTally,
  store: StoreView,
  instances: DemoProcess[],
  token: string,
): Promise<void> {
  let mismatches: string[] = [];
  let rows: Row[] = [];
  for (const deadline = Date.now() + 15_000; ; await sleep(500)) {
    const stops: Record<string, Stop> = {};
    for (const d of instances) Object.assign(stops, JSON.parse(await d.tool('rel_stop_events', {}, token)));
    rows = await store.all();
    mismatches = compare(rows, stops);
    if (mismatches.length === 0 || Date.now() > deadline) break;
  }
  t.note('tasks whose stop event matches the stored status', `${rows.length - mismatches.length} of ${rows.length}`);
  report.check(
    t,
    'telemetry truth: each task has one mcp.task.stop, with the status (and isError) it has in the store',
    mismatches.length === 0 && rows.length > 0,
    `${mismatches.length} mismatches in ${rows.length} tasks` +
      (mismatches.length ? `: ${mismatches.slice(0, 5).join(' | ')}` : ''),
  );
}

function compare(rows: Row[], stops: Record<string, Stop>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    seen.add(row.id);
    const stop = stops[row.id];
    const isError = row.isError;
    if (!stop) out.push(`${row.id}: ${row.status}, no stop event`);
    else if (stop.status !== row.status || stop.isError !== isError || stop.count !== 1)
      out.push(`${row.id}: stored ${row.status}${isError ? ' (isError)' : ''}, stop ${JSON.stringify(stop)}`);
  }
  for (const id of Object.keys(stops)) if (!seen.has(id)) out.push(`${id}: a stop event but no stored task`);
  return out;
}
