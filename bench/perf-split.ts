// node dist/bench/perf-split.js <dir> (a pair-compare.js --perf directory: <mode>-<round>.data and .answers)
// Where the two demos' CPU went, per answer and per mode: main thread on the store's path (any frame in pg,
// pg-protocol, pg-pool, pg-types, typeorm or the library's store/), main thread elsewhere (HTTP, dispatch, the
// event loop, the kernel under them), garbage collection and JIT compiles on the main thread and on V8's worker
// threads. A sample is 1/1999 s of CPU (perf's software clock); JS frames are named when the demos ran with
// --perf-basic-prof.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const GC = /Heap::|Scavenge|MarkCompact|Sweeper|ConcurrentMarking|GCTracer|MinorMC|IncrementalMarking|Unmapper/;
const JIT = /compiler::|Compiler|Maglev|Turbofan|OptimizingCompile|Sparkplug|baseline::/;
const STORE = /node_modules\/(pg|pg-protocol|pg-pool|pg-types|typeorm)\/|libs\/mcp-tasks\/dist\/store\//;

function category(head: string, frames: string[]): string {
  const [pid, tid] = head.trim().split(/\s+/)[0].split('/');
  const where = pid === tid ? 'main' : 'worker threads';
  if (frames.some((f) => GC.test(f))) return `${where}: GC`;
  if (frames.some((f) => JIT.test(f))) return `${where}: JIT`;
  if (where !== 'main') return `${where}: other`;
  return frames.some((f) => STORE.test(f)) ? 'main: store path' : 'main: rest';
}

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: perf-split <dir>');
const byMode = new Map<string, { samples: Map<string, number>; answers: number }>();
for (const file of readdirSync(dir).filter((f) => f.endsWith('.data'))) {
  const mode = file.replace(/-\d+\.data$/, '');
  const entry = byMode.get(mode) ?? { samples: new Map<string, number>(), answers: 0 };
  byMode.set(mode, entry);
  entry.answers += Number(readFileSync(join(dir, file.replace(/\.data$/, '.answers')), 'utf8'));
  const script = execFileSync('perf', ['script', '-i', join(dir, file), '-F', 'pid,tid,ip,sym,dso'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  for (const block of script.split('\n\n')) {
    const [head, ...frames] = block.split('\n').filter((l) => l.trim());
    if (!head) continue;
    const c = category(head, frames);
    entry.samples.set(c, (entry.samples.get(c) ?? 0) + 1);
  }
}
const names = [...new Set([...byMode.values()].flatMap((m) => [...m.samples.keys()]))].sort();
const modes = [...byMode.keys()].sort();
console.log(['µs per answer'.padEnd(24), ...modes.map((m) => m.padStart(8))].join(''));
const perAnswer = (m: string, n: number) => (n * 1e6) / 1999 / byMode.get(m)!.answers;
for (const name of names)
  console.log(
    [
      name.padEnd(24),
      ...modes.map((m) =>
        perAnswer(m, byMode.get(m)!.samples.get(name) ?? 0)
          .toFixed(1)
          .padStart(8),
      ),
    ].join(''),
  );
const total = (m: string) => [...byMode.get(m)!.samples.values()].reduce((a, b) => a + b, 0);
console.log(['total'.padEnd(24), ...modes.map((m) => perAnswer(m, total(m)).toFixed(1).padStart(8))].join(''));
