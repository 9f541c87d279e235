/** Every figure the bench reports: its title, unit and which way is better. */
export interface Metric {
  title: string;
  unit: string;
  better: 'higher' | 'lower';
}

const m = (title: string, unit: string, better: Metric['better']): Metric => ({ title, unit, better });

export const METRICS = {
  getRps: m('tasks/get throughput (16 in flight)', 'req/s', 'higher'),
  getP50: m('tasks/get p50 (16 in flight)', 'ms', 'lower'),
  getP99: m('tasks/get p99 (16 in flight)', 'ms', 'lower'),
  getCpu: m('server CPU per tasks/get', 'µs', 'lower'),
  callRps: m('sync tools/call throughput (16 in flight)', 'req/s', 'higher'),
  callP50: m('sync tools/call p50 (16 in flight)', 'ms', 'lower'),
  callP99: m('sync tools/call p99 (16 in flight)', 'ms', 'lower'),
  callCpu: m('server CPU per sync tools/call', 'µs', 'lower'),
  getP50One: m('tasks/get p50, 1 client', 'ms', 'lower'),
  callP50One: m('sync tools/call p50, 1 client', 'ms', 'lower'),
  getCpuBoth: m('server CPU per tasks/get, gateway and upstream processes together', 'µs', 'lower'),
  callCpuBoth: m('server CPU per sync tools/call, gateway and upstream processes together', 'µs', 'lower'),
  create1P50: m('tools/call → CreateTaskResult p50, 1 client', 'ms', 'lower'),
  create1P99: m('tools/call → CreateTaskResult p99, 1 client', 'ms', 'lower'),
  create50Rps: m('tools/call → CreateTaskResult throughput, 50 clients', 'req/s', 'higher'),
  create50P99: m('tools/call → CreateTaskResult p99, 50 clients', 'ms', 'lower'),
  create50Cpu: m('server CPU per tools/call → CreateTaskResult, 50 clients', 'µs', 'lower'),
  createOwnersRps: m('tools/call → CreateTaskResult throughput, 50 clients, 50 owners', 'req/s', 'higher'),
  createOwnersP99: m('tools/call → CreateTaskResult p99, 50 clients, 50 owners', 'ms', 'lower'),
  cancelP50: m('tasks/cancel → ctx.signal fires on the instance running the task, p50', 'ms', 'lower'),
  cancelP99: m('tasks/cancel → ctx.signal fires on the instance running the task, p99', 'ms', 'lower'),
  answerP50: m('tasks/update (the answer) → ctx.elicit returns on the instance running the task, p50', 'ms', 'lower'),
  answerP99: m('tasks/update (the answer) → ctx.elicit returns on the instance running the task, p99', 'ms', 'lower'),
  relayCpu1: m('CPU per relayed cancel of each instance running tasks, 1 instance (+ 1 sending)', 'µs', 'lower'),
  relayCpu2: m('CPU per relayed cancel of each instance running tasks, 2 instances (+ 1 sending)', 'µs', 'lower'),
  relayCpu4: m('CPU per relayed cancel of each instance running tasks, 4 instances (+ 1 sending)', 'µs', 'lower'),
  relayEvents1: m('events the bus hands each instance running tasks per cancel of its own, 1 instance', '', 'lower'),
  relayEvents4: m('events the bus hands each instance running tasks per cancel of its own, 4 instances', '', 'lower'),
  writerTps: m("another client's one-row commits on the module's PostgreSQL database", 'tx/s', 'higher'),
  smallP50: m('tasks/get p50, 1 client, 1k live tasks', 'ms', 'lower'),
  smallP99: m('tasks/get p99, 1 client, 1k live tasks', 'ms', 'lower'),
  largeP50: m('tasks/get p50, 1 client, 100k live tasks', 'ms', 'lower'),
  largeP99: m('tasks/get p99, 1 client, 100k live tasks', 'ms', 'lower'),
  millionSmallP50: m('tasks/get p50, 1 client, 1k live tasks (--scale)', 'ms', 'lower'),
  millionLargeP50: m('tasks/get p50, 1 client, 1M live tasks (--scale)', 'ms', 'lower'),
  millionQuietP99: m('tasks/get p99, 1 client, 1M live tasks, quiet (--scale)', 'ms', 'lower'),
  millionSweepP99: m(
    'tasks/get p99, 1 client, 1M live tasks, while 1M expired tasks are swept (--scale)',
    'ms',
    'lower',
  ),
  millionQuietP99Calm: m('tasks/get p99, 1 client, 1M live tasks, quiet, host steal ≤ 3 % (--scale)', 'ms', 'lower'),
  millionSweepP99Calm: m(
    'tasks/get p99, 1 client, 1M live tasks, while 1M expired tasks are swept, host steal ≤ 3 % (--scale)',
    'ms',
    'lower',
  ),
  millionSeedS: m('seeding 1M live tasks straight into mcp_tasks (--scale)', 's', 'lower'),
  millionTableMb: m('mcp_tasks with 1M live tasks, table and indexes (--scale)', 'MB', 'lower'),
  millionSweepS: m('sweep of 1M expired tasks (--scale)', 's', 'lower'),
  idleHeap: m('JS heap per idle in-memory task', 'bytes', 'lower'),
  idleRss: m('RSS per idle in-memory task', 'bytes', 'lower'),
  doneHeap: m('JS heap per completed task kept until its ttl (made by tools/call)', 'bytes', 'lower'),
  cpuCall: m('CPU per sync tools/call (fixed count)', 'µs', 'lower'),
  cpuGet: m('CPU per tasks/get (fixed count)', 'µs', 'lower'),
  resumeKillP50: m("SIGKILL → the task's next attempt's first progress on another instance, p50", 'ms', 'lower'),
  resumeKillP99: m("SIGKILL → the task's next attempt's first progress on another instance, p99", 'ms', 'lower'),
  resumeTermP50: m(
    "SIGTERM → the task's next attempt's first progress on another instance (hand-over), p50",
    'ms',
    'lower',
  ),
  resumeTermP99: m(
    "SIGTERM → the task's next attempt's first progress on another instance (hand-over), p99",
    'ms',
    'lower',
  ),
  consoleOverviewP50: m('console GET /api/overview p50, 1 client, 100k tasks', 'ms', 'lower'),
  consoleOverviewP95: m('console GET /api/overview p95, 1 client, 100k tasks', 'ms', 'lower'),
  consoleActivityP50: m('console GET /api/activity p50, 1 client, 100k tasks', 'ms', 'lower'),
  consoleActivityP95: m('console GET /api/activity p95, 1 client, 100k tasks', 'ms', 'lower'),
  consoleListP50: m('console GET /api/tasks p50 (slowest filter), 1 client, 100k tasks', 'ms', 'lower'),
  consoleListP95: m('console GET /api/tasks p95 (slowest filter), 1 client, 100k tasks', 'ms', 'lower'),
  consoleTaskP95: m('console GET /api/tasks/:id p95, 1 client, 100k tasks', 'ms', 'lower'),
} satisfies Record<string, Metric>;

export type MetricKey = keyof typeof METRICS;
