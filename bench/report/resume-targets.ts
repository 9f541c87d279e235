import { RESUME } from '../scenarios/resume.settings.js';
import type { MetricKey } from './metrics.js';
import { RESUME_PAIR } from './names.js';
import type { Results } from './results.js';
import type { Target } from './targets.js';

/** A figure of the resume phase as a multiple of the lease (and of shutdownGrace, for the hand-over). */
const ofLease = (metric: MetricKey, grace: boolean) => (r: Results) => {
  const ms = r.value(metric, RESUME_PAIR);
  if (ms === undefined) return undefined;
  const x = ms / RESUME.leaseMs;
  const graces = grace ? `, ${(ms / RESUME.graceMs).toFixed(1)}× shutdownGrace ${RESUME.graceMs} ms` : '';
  return { x, shown: `${x.toFixed(2)}× lease (${Math.round(ms)} ms; lease ${RESUME.leaseMs} ms${graces})` };
};

/**
 * Issue 38: the time from an instance's end to a task's next attempt reporting progress elsewhere, "reported against
 * lease". After SIGKILL it waits for the lease to lapse (lease/3..lease after the last renewal) and the next look
 * (every pollInterval): the figures are reported. After SIGTERM the leases are released once shutdownGrace is over, so
 * the hand-over should take shutdownGrace plus up to one look: that it stays under one lease is the one target.
 */
export const RESUME_TARGETS: Target[] = [
  ...(['resumeKillP50', 'resumeKillP99'] as const).map((metric) => ({
    metric,
    contestant: RESUME_PAIR,
    text:
      "Resume after SIGKILL, reported: kill → the next attempt's first progress, " +
      `${metric.endsWith('P50') ? 'p50' : 'p99'} ÷ lease`,
    measure: ofLease(metric, false),
  })),
  {
    metric: 'resumeTermP50',
    contestant: RESUME_PAIR,
    text: "Hand-over on SIGTERM, reported: SIGTERM → the next attempt's first progress, p50 ÷ lease",
    measure: ofLease('resumeTermP50', true),
  },
  {
    metric: 'resumeTermP99',
    contestant: RESUME_PAIR,
    text: "Hand-over on SIGTERM: SIGTERM → the next attempt's first progress, p99 < 1× lease",
    measure: ofLease('resumeTermP99', true),
    met: (x) => x < 1,
  },
];
