import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What one process has used so far (Linux `/proc`). CPU in seconds, `waitNs`: runnable but not on a core. */
export interface ProcCounters {
  cpu: number;
  /** Of `cpu`, in the kernel. */
  sys: number;
  /** Of `cpu`, on threads other than the main one: V8's platform workers (concurrent JIT, GC marking, sweeping). */
  workers: number;
  /** Voluntary context switches: the times the process went to sleep (its event loop waiting) and was woken. */
  wakes: number;
  /** Involuntary ones: taken off a core while it still had work. */
  preempted: number;
  waitNs: number;
}

const fieldsOf = (path: string) => {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};
/** utime + stime of a `stat` line's fields, in seconds (USER_HZ is 100 on Linux). */
const ticks = (f: string[]) => (Number(f[11]) + Number(f[12])) / 100;

export function countersOf(pid: number): ProcCounters {
  const f = fieldsOf(`/proc/${pid}/stat`);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const num = (key: string) => Number(new RegExp(`\\b${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const [, waitNs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
  const cpu = ticks(f);
  return {
    cpu,
    sys: Number(f[12]) / 100,
    workers: cpu - ticks(fieldsOf(`/proc/${pid}/task/${pid}/stat`)),
    wakes: num('voluntary_ctxt_switches'),
    preempted: num('nonvoluntary_ctxt_switches'),
    waitNs,
  };
}

/**
 * CPU seconds of the PostgreSQL cluster listening on `port`: its postmaster and the children alive now (a backend
 * that ended in between takes its share with it, so read it over windows where the pools keep their connections).
 */
export function postgresCpu(port: string): number {
  const stats = new Map<string, string[]>();
  let master: string | undefined;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const f = fieldsOf(`/proc/${pid}/stat`);
      stats.set(pid, f);
      const cmd = master ? '' : readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (/\/postgres /.test(cmd) && cmd.includes(` -p ${port} `)) master = pid;
    } catch {
      // Gone in between.
    }
  }
  let sum = 0;
  for (const [pid, f] of stats) if (pid === master || f[1] === master) sum += ticks(f);
  return sum;
}

/**
 * A preload (`node --require <file>`) counting the queries the process sends through `pg` (every `Client#query`:
 * the store's and the bus's), written to `<dir>/pg-queries-<pid>` five times a second; `queriesOf` reads it.
 */
export function queryCounter(dir: string): { nodeArgs: string[]; queriesOf: (pid: number) => number } {
  const file = join(dir, 'count-pg-queries.cjs');
  writeFileSync(
    file,
    [
      `const { renameSync, writeFileSync } = require('node:fs');`,
      `const pg = require(require.resolve('pg', { paths: [process.cwd()] }));`,
      `let n = 0;`,
      `const query = pg.Client.prototype.query;`,
      `pg.Client.prototype.query = function (...args) { n++; return query.apply(this, args); };`,
      `const out = ${JSON.stringify(join(dir, 'pg-queries-'))} + process.pid;`,
      `const write = () => { writeFileSync(out + '.tmp', String(n)); renameSync(out + '.tmp', out); };`,
      `setInterval(write, 200).unref();`,
    ].join('\n'),
  );
  const queriesOf = (pid: number) => {
    try {
      return Number(readFileSync(join(dir, `pg-queries-${pid}`), 'utf8'));
    } catch {
      return 0;
    }
  };
  return { nodeArgs: ['--require', file], queriesOf };
}
