/** Latency summary of one measured run, in milliseconds. */
export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array. */
export const percentile = (sorted: ArrayLike<number>, p: number): number =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** The median of a few figures (rounds). */
export const median = (xs: number[]): number => percentile(Float64Array.from(xs).sort(), 50);

export function summarize(samples: ArrayLike<number>, count = samples.length): LatencySummary {
  const sorted = Float64Array.from({ length: count }, (_, i) => samples[i]).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count,
    mean: count ? sum / count : NaN,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[count - 1] ?? NaN,
  };
}
