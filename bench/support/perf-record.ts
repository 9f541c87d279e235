import { spawn } from 'node:child_process';

/**
 * `perf record` (software clock, 1 999 Hz, call graphs) of the processes `pids` (all their threads) into `out`
 * until the returned stop: kernel, native and JS frames, the JS ones named when the processes run with
 * `--perf-basic-prof`. Read with `perf-split.js`. Needs `perf` and the right to trace those processes (root).
 */
export async function perfRecord(pids: number[], out: string): Promise<() => Promise<void>> {
  const args = ['record', '-e', 'cpu-clock', '-F', '1999', '-g', '-p', pids.join(','), '-o', out];
  const p = spawn('perf', args, { stdio: 'ignore' });
  // perf attaches to every thread before it samples: give it a moment, not the measured window's start.
  await new Promise((r) => setTimeout(r, 500));
  return () =>
    new Promise<void>((done) => {
      p.once('exit', () => done());
      p.kill('SIGINT');
    });
}
