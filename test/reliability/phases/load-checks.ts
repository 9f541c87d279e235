import type { LoadShared } from '../load/client.js';
import type { DemoProcess } from '../support/demo-process.js';
import type { Report } from '../support/report.js';
import type { PhaseTally } from '../support/tally.js';

const show = (shared: LoadShared, match: (kind: string) => boolean): [number, string] => {
  const hits = [...shared.problems.entries()].filter(([k]) => match(k));
  const count = hits.reduce((n, [, p]) => n + p.count, 0);
  return [count, hits.map(([k, p]) => `${k} ×${p.count}: ${p.examples.join(' | ')}`).join('\n    ')];
};

/** The checks every load-style phase makes on what its clients saw. */
export function reportProblems(
  report: Report,
  t: PhaseTally,
  shared: LoadShared,
  names: { protocol: string; ended: string; keys: string },
  o: { unansweredOk?: boolean } = {},
): void {
  const [protocol, p] = show(shared, (k) => k.startsWith('protocol error'));
  const ok = protocol === 0 && t.fiveXx === 0 && (o.unansweredOk || t.transportErrors === 0);
  report.check(
    t,
    names.protocol,
    ok,
    `${protocol} errors, 5xx ${t.fiveXx}, no answer ${t.transportErrors}${p ? `\n    ${p}` : ''}`,
  );
  const [ended, e] = show(shared, (k) => k.startsWith('task did not end') || k === 'stuck task');
  report.check(
    t,
    names.ended,
    ended === 0 && t.lostAnswers === 0,
    `${ended} tasks, lost answers ${t.lostAnswers}, stuck ${t.stuck}${e ? `\n    ${e}` : ''}`,
  );
  const [keys, k] = show(shared, (x) => x.startsWith('input key'));
  report.check(t, names.keys, keys === 0, `${keys}${k ? `\n    ${k}` : ''}`);
}

/** Each instance still up (or killed by us) and nothing unhandled on its stderr. */
export function checkInstances(
  report: Report,
  t: PhaseTally,
  instances: DemoProcess[],
  killed: DemoProcess[] = [],
): void {
  for (const d of instances) {
    const up = d.alive || killed.includes(d);
    report.check(
      t,
      `${d.name}: ${killed.includes(d) ? 'no' : 'still up, no'} unhandled rejection/exception`,
      up && d.unhandled.length === 0,
      up ? d.unhandled.slice(0, 3).join(' | ') : `exited ${JSON.stringify(d.exit)}: ${d.stderr.slice(-600)}`,
    );
  }
}
