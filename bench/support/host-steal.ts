import { readFileSync } from 'node:fs';
import { percentile } from '../load/stats.js';

/**
 * Starts a stopwatch on the CPU time the hypervisor gave to other guests ("steal" in `/proc/stat`); the
 * returned function gives the share of this machine's CPU time stolen since, in percent. On these shared VMs it
 * is ~1 % when the host is quiet and 15–25 % when it is not, and then every latency here moves with it (a quiet
 * `tasks/get` p50 of 0.8 ms read 1.5–2 ms at 20 % steal). `undefined` where `/proc/stat` has no such column.
 */
export function stealSince(): () => number | undefined {
  const start = cpuTimes();
  return () => {
    const end = cpuTimes();
    return start && end ? share(start, end) : undefined;
  };
}

/** Host steal second by second, to sort samples by how much of the machine the host left them. */
export interface StealTimeline {
  /** Percent stolen in the sampling interval around `at` (a `performance.now()` time); undefined outside. */
  at(at: number): number | undefined;
  stop(): void;
}

export function stealTimeline(everyMs = 1_000): StealTimeline {
  const marks: Array<CpuTimes & { t: number }> = [];
  const take = () => {
    const c = cpuTimes();
    if (c) marks.push({ ...c, t: performance.now() });
  };
  take();
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    at: (at) => {
      const i = marks.findIndex((m) => m.t >= at);
      return i > 0 ? share(marks[i - 1], marks[i]) : undefined;
    },
    stop: () => {
      clearInterval(timer);
      take();
    },
  };
}

interface CpuTimes {
  steal: number;
  total: number;
}

const share = (a: CpuTimes, b: CpuTimes) => (b.total > a.total ? (100 * (b.steal - a.steal)) / (b.total - a.total) : 0);

function cpuTimes(): CpuTimes | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already counted in user)
    if (fields.length < 8) return undefined;
    return { steal: fields[7], total: fields.slice(0, 8).reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/** Latencies kept with when they came back, so the ones the host disturbed can be told apart afterwards. */
export class StampedLatencies {
  private readonly ms: number[] = [];
  private readonly at: number[] = [];

  /** Pass as `onSample`. */
  readonly add = (ms: number, at: number): void => {
    this.ms.push(ms);
    this.at.push(at);
  };

  /** p99 (and count) of the latencies that came back in intervals where the host took at most `maxSteal` %. */
  calm(timeline: StealTimeline, maxSteal: number): { p99: number; n: number } {
    const kept = Float64Array.from(this.ms.filter((_, i) => (timeline.at(this.at[i]) ?? Infinity) <= maxSteal));
    return { p99: percentile(kept.sort(), 99), n: kept.length };
  }
}
