import type { Plan } from '../config.js';
import { RESUME } from '../scenarios/resume.settings.js';

const n = (x: number): string => x.toLocaleString('en');

/** How the figures were taken, for the results page. */
export const method = (p: Plan): string => `
- Load generator: \`bench/load/\`, undici keep-alive connection pools, closed loop (each client waits for its answer),
  loopback only. Every load run has an unmeasured warm-up (${p.warmupMs} ms), then a measured phase of at most
  ${p.durationMs} ms and ${n(p.maxRequests)} requests. Requests carry the 2026-07-28 \`_meta\` envelope and the
  \`Mcp-Method\` / \`Mcp-Name\` headers; every answer is checked.
- Throughput figures: ${p.concurrency} requests in flight. tasks/get cycles over ${p.concurrency} live tasks
  (\`slow_compute\`, an hour); the synchronous tools/call is \`greet {name}\`. "Server CPU per request" is the
  contestant's user+system CPU (\`/proc/PID/stat\`) over the measured phase.
- Task creation: tools/call \`slow_compute {seconds: 0}\` declaring the tasks extension; the answer must be a
  CreateTaskResult (sent once the store holds the task); the tool then finishes at once. One client for p50/p99
  (medians of ${p.rounds} rounds),
  ${p.createClients} clients for throughput.
- Cancel: \`bench_wait\` (a fixture task that waits on \`ctx.signal\`) runs on instance A; \`tasks/cancel\` is sent to
  instance B; the figure is from sending the cancel to the signal firing inside A (recorded there; one machine, one
  clock). ${p.cancelRounds} sequential rounds. The same-instance row sends the cancel to A itself (memory store), for
  reference.
- Live tasks: \`bench_seed\` adds idle working tasks straight to the store (100 the caller's, the rest 50 per other
  owner); tasks/get latency with one client over the caller's 100, at ${n(p.scaleSmall)} live tasks, then at
  ${n(p.scaleLarge.memory)} (memory) / ${n(p.scaleLarge.database)} (SQLite, PostgreSQL), two processes measured in
  interleaved rounds; the target takes the median of the per-round ratios of their p50s (so does the million case).
- Operator console: the demo on PostgreSQL with ${n(p.scaleLarge.database)} tasks inserted straight into its database
  (one \`INSERT … SELECT\`, then \`ANALYZE\`): created over the last hour, 2 000 owners, 8 tools, 80 % completed / 8 %
  failed / 6 % cancelled / 5 % working / 1 % waiting for input. One client GETs each \`/mcp-console/api\` route in
  turn (as the page polls): the overview, the activity (chart and run times), the list (newest first, page 2, by
  status, tool and status, one owner, an age range), a task.
- Memory per idle task: a fresh memory-store process (\`--expose-gc\`), full GC, ${n(p.idleTasks)} idle tasks
  seeded, full GC; growth of heapUsed and RSS per task. Then ${n(p.doneTasks)} tasks made by tools/call
  (\`slow_compute {seconds: 0}\`), which end at once and stay readable until their ttl: heap growth per task.
- Gateway: the demo on memory as the upstream, and a second demo on memory in front of it
  (\`MCP_UPSTREAM_URL\`, its tools served as \`upstream_*\`). Sync tools/call: \`greet\` on the upstream vs
  \`upstream_greet\` on the gateway (forwarded by \`@mcp-tasks/client\`). tasks/get: ${p.concurrency} upstream
  \`slow_compute\` tasks read on the upstream vs the gateway's ${p.concurrency} local tasks mirroring upstream ones
  (the gateway answers from its own store; the upstream only sees the mirrors following their tasks). Both sides in
  interleaved rounds (at most two, each window half the length above), at 1 client and at ${p.concurrency} in flight;
  CPU from \`/proc\` of each process over the ${p.concurrency}-in-flight runs ("both": the two processes summed, on
  either side).
- Resume (issue 38): two demos on one PostgreSQL database (\`MCP_LEASE=${RESUME.leaseMs}\`,
  \`MCP_SHUTDOWN_GRACE=${RESUME.graceMs}\`). B stays up; each round starts a fresh A and ${p.resumeTasks}
  \`bench_resumable\` tasks on it (\`resume: true\`, progress naming the attempt every ${RESUME.stepMs} ms), waits
  until each reported progress, then at a random point of the lease-renewal cycle sends A SIGKILL
  (${p.resumeRounds} round${p.resumeRounds > 1 ? 's' : ''}) or SIGTERM (as many, A then without the bench's
  exit-at-once preload: its shutdown hooks run). Figure per task: from the signal to attempt 2's first progress
  being stored on B (recorded inside B; one machine, one clock); tasks/get on B must show that progress. p50/p99
  over every task of every round, divided by the lease.
- CPU per request: fresh processes; the server's own \`process.cpuUsage()\` (read through \`bench_stats\`) before and
  after ${n(p.cpuRequests)} requests (8 in flight, after a warm-up), in ${p.cpuRounds} interleaved rounds (every other
  one in reverse order); a figure is the total over its rounds, and a target comparing two figures takes the median
  of their per-round ratios (each pair measured moments apart). Telemetry on = the library default with no
  OpenTelemetry SDK or exporter registered; auth on = \`MCP_AUTH=1\`, HS256 bearer tokens signed by the
  demo's token code (\`src/demo-token.ts\`) with a \`MCP_JWT_SECRET\` made for the run.
`;
