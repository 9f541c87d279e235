import { readFileSync } from 'node:fs';

/**
 * Samples the 1-minute load average while the bench runs. On this 2-core machine the bench alone
 * keeps it near 2; well above that, something else was competing for the CPU and the figures of
 * that run are less trustworthy.
 */
export function sampleLoad(everyMs = 5_000): () => { mean: number; max: number } {
  const samples: number[] = [];
  const take = () => samples.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
  take();
  const timer = setInterval(take, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    take();
    return { mean: samples.reduce((a, b) => a + b, 0) / samples.length, max: Math.max(...samples) };
  };
}
