import type { MetricKey } from './metrics.js';
import type { Results } from './results.js';

/** `a` ÷ `b` of one figure each. */
export const ratio =
  (metric: MetricKey, a: string, b: string, bMetric: MetricKey = metric) =>
  (r: Results) => {
    const x = r.value(metric, a);
    const y = r.value(bMetric, b);
    return x === undefined || y === undefined || y === 0 ? undefined : { x: x / y, shown: `${(x / y).toFixed(2)}×` };
  };

/**
 * `a` ÷ `b` from figures measured in interleaved rounds: the median of the per-round ratios, each of two figures
 * taken moments apart, so a load that comes and goes on the machine cancels out of each pair. Falls back to the
 * ratio of the totals (or of the figures) when either has no rounds.
 */
export const pairedRatio =
  (metric: MetricKey, a: string, b: string, bMetric: MetricKey = metric) =>
  (r: Results) => {
    const x = r.get(metric, a)?.rounds;
    const y = r.get(bMetric, b)?.rounds;
    if (!x || !y || x.length !== y.length || x.length < 3) return ratio(metric, a, b, bMetric)(r);
    const per = x.map((v, i) => v / y[i]).sort((m, n) => m - n);
    const mid = per.length / 2;
    const median = per.length % 2 ? per[Math.floor(mid)] : (per[mid - 1] + per[mid]) / 2;
    return { x: median, shown: `${median.toFixed(2)}× (median of ${per.length} paired rounds)` };
  };

/** One figure as it is, in `unit`. */
export const absolute = (metric: MetricKey, who: string, unit: string) => (r: Results) => {
  const x = r.value(metric, who);
  return x === undefined ? undefined : { x, shown: `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ${unit}` };
};
