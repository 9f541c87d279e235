import type { MetricKey } from './metrics.js';
import {
  CANCEL_CROSS,
  CONSOLE_POSTGRES,
  CPU_AUTH,
  CPU_AUTH_FRESH,
  CPU_BASE,
  CPU_BASE_FRESH,
  CPU_NO_TELEMETRY,
  CPU_OTEL_SDK,
  FASTIFY_NEST_ROUTE,
  LIMIT,
  MCP_NEST,
  MEMORY,
  MEMORY_NEST_ROUTE,
  MEMORY_OWNERS,
  PG_LIMIT,
  POSTGRES,
  POSTGRES_OWNERS,
  POSTGRES_MILLION,
  POSTGRES_PAIR,
  POSTGRES_PAIR_ALONE,
  SDK,
  SQLITE,
} from './names.js';
import { BUS_TARGETS } from './bus-targets.js';
import { GATEWAY_TARGETS } from './gateway-targets.js';
import { absolute, pairedRatio, ratio } from './ratios.js';
import { REDIS_TARGETS } from './redis-targets.js';
import { RESUME_TARGETS } from './resume-targets.js';
import type { Results } from './results.js';

/** A target of the issue, attached to the figure (metric × contestant) it judges. */
export interface Target {
  metric: MetricKey;
  contestant: string;
  text: string;
  /** The judged number (a ratio or a value) and how to show it; undefined when not measured. */
  measure(r: Results): { x: number; shown: string } | undefined;
  /** Absent for a comparison the issue asks for without a target. */
  met?: (x: number) => boolean;
}

export interface Verdict {
  target: Target;
  shown: string;
  /** null: not measured, or no target to meet. */
  pass: boolean | null;
}

export const TARGETS: Target[] = [
  {
    metric: 'getRps',
    contestant: MEMORY,
    text: 'tasks/get ≥ 0.25× limit throughput',
    measure: ratio('getRps', MEMORY, LIMIT),
    met: (x) => x >= 0.25,
  },
  {
    metric: 'getRps',
    contestant: MEMORY,
    text: 'tasks/get ≥ 5× SDK peer throughput',
    measure: ratio('getRps', MEMORY, SDK),
    met: (x) => x >= 5,
  },
  {
    metric: 'getCpu',
    contestant: MEMORY,
    text:
      'tasks/get by server CPU per request: limit ÷ module' +
      ' (the throughput ratio if neither side were load-generator bound)',
    measure: ratio('getCpu', LIMIT, MEMORY),
  },
  {
    metric: 'getCpu',
    contestant: MEMORY,
    text: 'tasks/get by server CPU per request: SDK peer ÷ module',
    measure: ratio('getCpu', SDK, MEMORY),
  },
  {
    metric: 'getRps',
    contestant: MEMORY_NEST_ROUTE,
    text: 'tasks/get throughput, fastPath on ÷ off (Express and Nest routing every request)',
    measure: ratio('getRps', MEMORY, MEMORY_NEST_ROUTE),
  },
  {
    metric: 'getRps',
    contestant: MEMORY_NEST_ROUTE,
    text: 'tasks/get with fastPath off ÷ SDK peer throughput',
    measure: ratio('getRps', MEMORY_NEST_ROUTE, SDK),
  },
  {
    metric: 'callRps',
    contestant: MEMORY,
    text: 'sync tools/call ≥ 1.0× SDK peer throughput',
    measure: ratio('callRps', MEMORY, SDK),
    met: (x) => x >= 1,
  },
  {
    metric: 'callRps',
    contestant: MEMORY,
    text: 'sync tools/call ≥ 1.0× MCP-Nest throughput',
    measure: ratio('callRps', MEMORY, MCP_NEST),
    met: (x) => x >= 1,
  },
  {
    metric: 'cpuCall',
    contestant: CPU_AUTH,
    text: 'JWT auth CPU ≤ 1.3× auth off (tools/call, one token reused)',
    measure: pairedRatio('cpuCall', CPU_AUTH, CPU_BASE),
    met: (x) => x <= 1.3,
  },
  {
    metric: 'cpuGet',
    contestant: CPU_AUTH,
    text: 'JWT auth CPU ≤ 1.3× auth off (tasks/get, one token reused)',
    measure: pairedRatio('cpuGet', CPU_AUTH, CPU_BASE),
    met: (x) => x <= 1.3,
  },
  {
    metric: 'cpuCall',
    contestant: CPU_AUTH_FRESH,
    text: 'JWT auth CPU ≤ 1.3× auth off (tools/call, a new token each request; both sent the same requests)',
    measure: pairedRatio('cpuCall', CPU_AUTH_FRESH, CPU_BASE_FRESH),
    met: (x) => x <= 1.3,
  },
  {
    metric: 'cpuGet',
    contestant: CPU_AUTH_FRESH,
    text: 'JWT auth CPU ≤ 1.3× auth off (tasks/get, a new token each request; both sent the same requests)',
    measure: pairedRatio('cpuGet', CPU_AUTH_FRESH, CPU_BASE_FRESH),
    met: (x) => x <= 1.3,
  },
  {
    metric: 'cpuCall',
    contestant: CPU_AUTH_FRESH,
    text: 'JWT auth, a new token each request, vs auth off sent one prebuilt request (tools/call)',
    measure: pairedRatio('cpuCall', CPU_AUTH_FRESH, CPU_BASE),
  },
  {
    metric: 'cpuGet',
    contestant: CPU_AUTH_FRESH,
    text: 'JWT auth, a new token each request, vs auth off sent one prebuilt request (tasks/get)',
    measure: pairedRatio('cpuGet', CPU_AUTH_FRESH, CPU_BASE),
  },
  {
    metric: 'create1P99',
    contestant: MEMORY,
    text: 'create p99, one client ≤ 5 ms (memory)',
    measure: absolute('create1P99', MEMORY, 'ms'),
    met: (x) => x <= 5,
  },
  {
    metric: 'create1P99',
    contestant: POSTGRES,
    text: 'create p99, one client ≤ 15 ms (PostgreSQL)',
    measure: absolute('create1P99', POSTGRES, 'ms'),
    met: (x) => x <= 15,
  },
  {
    metric: 'cancelP99',
    contestant: CANCEL_CROSS,
    text: 'cross-instance cancel p99 ≤ 50 ms',
    measure: absolute('cancelP99', CANCEL_CROSS, 'ms'),
    met: (x) => x <= 50,
  },
  ...[MEMORY, SQLITE, POSTGRES].map((who): Target => ({
    metric: 'largeP50',
    contestant: who,
    text: `tasks/get latency at 100k ≤ 1.2× at 1k (${who.slice(7)}, p50)`,
    measure: pairedRatio('largeP50', who, who, 'smallP50'),
    met: (x) => x <= 1.2,
  })),
  {
    metric: 'idleHeap',
    contestant: MEMORY,
    text: '≤ 1 KB per idle in-memory task (JS heap)',
    measure: absolute('idleHeap', MEMORY, 'B'),
    met: (x) => x <= 1024,
  },
  {
    metric: 'doneHeap',
    contestant: MEMORY,
    text: 'JS heap per completed task kept until its ttl (made by tools/call)',
    measure: absolute('doneHeap', MEMORY, 'B'),
  },
  {
    metric: 'cpuCall',
    contestant: CPU_BASE,
    text: 'telemetry on (OpenTelemetry API, no SDK; event emitter, no listeners) ≤ 1.1× CPU of off, per tools/call',
    measure: pairedRatio('cpuCall', CPU_BASE, CPU_NO_TELEMETRY),
    met: (x) => x <= 1.1,
  },
  {
    metric: 'cpuGet',
    contestant: CPU_BASE,
    text: 'telemetry on (OpenTelemetry API, no SDK; event emitter, no listeners) ≤ 1.1× CPU of off, per tasks/get',
    measure: pairedRatio('cpuGet', CPU_BASE, CPU_NO_TELEMETRY),
    met: (x) => x <= 1.1,
  },
  {
    metric: 'cpuCall',
    contestant: CPU_OTEL_SDK,
    text:
      'telemetry with an OpenTelemetry SDK (batch processor, exporter drops spans)' +
      ' ≤ 1.3× CPU of off, per tools/call',
    measure: pairedRatio('cpuCall', CPU_OTEL_SDK, CPU_NO_TELEMETRY),
    met: (x) => x <= 1.3,
  },
  {
    metric: 'cpuGet',
    contestant: CPU_OTEL_SDK,
    text:
      'telemetry with an OpenTelemetry SDK (batch processor, exporter drops spans)' +
      ' ≤ 1.15× CPU of off, per tasks/get',
    measure: pairedRatio('cpuGet', CPU_OTEL_SDK, CPU_NO_TELEMETRY),
    met: (x) => x <= 1.15,
  },
  {
    metric: 'getRps',
    contestant: POSTGRES,
    text: 'PostgreSQL tasks/get ≥ 0.5× memory-store throughput (16 in flight)',
    measure: ratio('getRps', POSTGRES, MEMORY),
    met: (x) => x >= 0.5,
  },
  {
    metric: 'getCpu',
    contestant: POSTGRES,
    text: 'PostgreSQL tasks/get Node CPU per request ≤ 2× memory store',
    measure: ratio('getCpu', POSTGRES, MEMORY),
    met: (x) => x <= 2,
  },
  {
    metric: 'getRps',
    contestant: PG_LIMIT,
    text: 'PostgreSQL tasks/get: module ÷ database limit (bare node:http + pg, the same SELECT) throughput',
    measure: ratio('getRps', POSTGRES, PG_LIMIT),
  },
  {
    metric: 'getCpu',
    contestant: PG_LIMIT,
    text: 'PostgreSQL tasks/get: module ÷ database limit, Node CPU per request',
    measure: ratio('getCpu', POSTGRES, PG_LIMIT),
  },
  {
    metric: 'createOwnersRps',
    contestant: POSTGRES_OWNERS,
    text: 'PostgreSQL create, 50 clients, 50 owners ≥ 0.4× memory store (JWT auth on in both)',
    measure: ratio('createOwnersRps', POSTGRES_OWNERS, MEMORY_OWNERS),
    met: (x) => x >= 0.4,
  },
  ...REDIS_TARGETS,
  {
    metric: 'create50Rps',
    contestant: POSTGRES,
    text: 'PostgreSQL create, 50 clients, one owner (every create under its cap) ≥ 0.2× memory store',
    measure: ratio('create50Rps', POSTGRES, MEMORY),
    met: (x) => x >= 0.2,
  },
  {
    metric: 'create50Rps',
    contestant: PG_LIMIT,
    text:
      'PostgreSQL create, 50 clients: module (capped insert, then the task finishes: a second write) ÷ ' +
      'database limit (one plain INSERT per request)',
    measure: ratio('create50Rps', POSTGRES, PG_LIMIT),
  },
  {
    metric: 'create50P99',
    contestant: SQLITE,
    text: 'SQLite create, 50 clients, p99 ≤ 50 ms',
    measure: absolute('create50P99', SQLITE, 'ms'),
    met: (x) => x <= 50,
  },
  {
    metric: 'getRps',
    contestant: SQLITE,
    text: 'SQLite tasks/get ≥ 0.6× memory-store throughput (16 in flight)',
    measure: ratio('getRps', SQLITE, MEMORY),
    met: (x) => x >= 0.6,
  },
  {
    metric: 'getRps',
    contestant: POSTGRES_PAIR,
    text: 'PostgreSQL tasks/get, two instances sharing the load of one (8 + 8 in flight): sum ÷ one of them alone',
    measure: pairedRatio('getRps', POSTGRES_PAIR, POSTGRES_PAIR_ALONE),
  },
  {
    metric: 'getCpu',
    contestant: POSTGRES_PAIR,
    text: 'PostgreSQL tasks/get, two instances: Node CPU per request (both processes) ≤ 1.3× one of them alone',
    measure: pairedRatio('getCpu', POSTGRES_PAIR, POSTGRES_PAIR_ALONE),
    met: (x) => x <= 1.3,
  },
  {
    metric: 'create50Rps',
    contestant: POSTGRES_PAIR,
    text: 'PostgreSQL create, two instances sharing 50 clients (25 + 25): sum ÷ one of them alone',
    measure: pairedRatio('create50Rps', POSTGRES_PAIR, POSTGRES_PAIR_ALONE),
  },
  {
    metric: 'create50Cpu',
    contestant: POSTGRES_PAIR,
    text: 'PostgreSQL create, two instances: Node CPU per create (both processes) ≤ 1.3× one of them alone',
    measure: pairedRatio('create50Cpu', POSTGRES_PAIR, POSTGRES_PAIR_ALONE),
    met: (x) => x <= 1.3,
  },
  {
    metric: 'millionLargeP50',
    contestant: POSTGRES_MILLION,
    text: 'PostgreSQL tasks/get p50 at 1 000 000 live tasks ≤ 1.2× at 1 000 (--scale)',
    measure: pairedRatio('millionLargeP50', POSTGRES_MILLION, POSTGRES_MILLION, 'millionSmallP50'),
    met: (x) => x <= 1.2,
  },
  {
    metric: 'millionSweepP99Calm',
    contestant: POSTGRES_MILLION,
    text:
      'PostgreSQL tasks/get p99 at 1M live tasks while 1M expired tasks are swept ≤ 2× quiet p99, ' +
      'both over the seconds the host took ≤ 3 % of the CPU (--scale)',
    measure: ratio('millionSweepP99Calm', POSTGRES_MILLION, POSTGRES_MILLION, 'millionQuietP99Calm'),
    met: (x) => x <= 2,
  },
  {
    metric: 'millionSweepP99',
    contestant: POSTGRES_MILLION,
    text: 'PostgreSQL tasks/get p99 while 1M expired tasks are swept ÷ quiet p99, every read (--scale)',
    measure: ratio('millionSweepP99', POSTGRES_MILLION, POSTGRES_MILLION, 'millionQuietP99'),
  },
  {
    metric: 'millionSeedS',
    contestant: POSTGRES_MILLION,
    text: 'seeding 1M live tasks (--scale)',
    measure: absolute('millionSeedS', POSTGRES_MILLION, 's'),
  },
  {
    metric: 'millionTableMb',
    contestant: POSTGRES_MILLION,
    text: 'mcp_tasks with 1M live tasks, table and indexes (--scale)',
    measure: absolute('millionTableMb', POSTGRES_MILLION, 'MB'),
  },
  {
    metric: 'getRps',
    contestant: FASTIFY_NEST_ROUTE,
    text: 'tasks/get, fastPath off: Fastify ÷ Express throughput',
    measure: ratio('getRps', FASTIFY_NEST_ROUTE, MEMORY_NEST_ROUTE),
  },
  {
    metric: 'callRps',
    contestant: FASTIFY_NEST_ROUTE,
    text: 'sync tools/call, fastPath off: Fastify ÷ Express throughput',
    measure: ratio('callRps', FASTIFY_NEST_ROUTE, MEMORY_NEST_ROUTE),
  },
  ...GATEWAY_TARGETS,
  {
    metric: 'consoleOverviewP95',
    contestant: CONSOLE_POSTGRES,
    text: 'console overview (counts by status, tool and owner, caps, leases) p95 ≤ 200 ms (PostgreSQL, 100k tasks)',
    measure: absolute('consoleOverviewP95', CONSOLE_POSTGRES, 'ms'),
    met: (x) => x <= 200,
  },
  {
    metric: 'consoleActivityP95',
    contestant: CONSOLE_POSTGRES,
    text:
      'console activity (created/ended per minute, run time p50/p95 per tool) p95 ≤ 200 ms ' +
      '(PostgreSQL, 100k tasks)',
    measure: absolute('consoleActivityP95', CONSOLE_POSTGRES, 'ms'),
    met: (x) => x <= 200,
  },
  {
    metric: 'consoleListP95',
    contestant: CONSOLE_POSTGRES,
    text: 'console task list p95 ≤ 200 ms, slowest of its filters and pages (PostgreSQL, 100k tasks)',
    measure: absolute('consoleListP95', CONSOLE_POSTGRES, 'ms'),
    met: (x) => x <= 200,
  },
  {
    metric: 'consoleTaskP95',
    contestant: CONSOLE_POSTGRES,
    text: 'console task page p95 ≤ 200 ms (PostgreSQL, 100k tasks)',
    measure: absolute('consoleTaskP95', CONSOLE_POSTGRES, 'ms'),
    met: (x) => x <= 200,
  },
  ...RESUME_TARGETS,
  ...BUS_TARGETS,
];

export function judge(r: Results): Verdict[] {
  return TARGETS.map((target) => {
    const m = target.measure(r);
    const why = r.get(target.metric, target.contestant)?.notRun;
    if (!m) return { target, shown: why ? `not run: ${why}` : 'not measured', pass: null };
    return { target, shown: m.shown, pass: target.met ? target.met(m.x) : null };
  });
}
