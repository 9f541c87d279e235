import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { McpTool, TaskEventBus, TaskStore, type TaskRecord, type ToolContext } from '@mcp-tasks/nestjs';
import { BenchIdsDto, BenchSeedDto, BenchStatsDto } from './bench.dto.js';

/** Tasks other people own, this many each (a server with many users, each under the default cap). */
const TASKS_PER_OTHER_OWNER = 50;
/** Parallel inserts when seeding a database store. */
const SEED_PARALLEL = 16;

const now = () => performance.timeOrigin + performance.now();

/**
 * Tools the benchmark (`npm run bench`) calls, in its fixture app. They measure the
 * process from inside (CPU, memory, which store it really runs on), fill the store, and record when
 * a cancelled task's signal fires.
 */
@Injectable()
export class BenchFixtures implements OnModuleInit {
  private store!: TaskStore;
  private bus!: TaskEventBus;
  private readonly aborts = new Map<string, number>();
  /** Events the bus handed this process (its own and those relayed to it), since it started. */
  private events = 0;

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    this.store = this.moduleRef.get<TaskStore>(TaskStore, { strict: false });
    this.bus = this.moduleRef.get<TaskEventBus>(TaskEventBus, { strict: false });
    this.bus.subscribe(() => void this.events++);
  }

  @McpTool({
    name: 'bench_stats',
    description: 'Process CPU and memory, and the store and bus in use.',
    input: BenchStatsDto,
  })
  async stats(args: BenchStatsDto): Promise<string> {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (args.gc && gc) for (let i = 0; i < 3; i++) gc();
    return JSON.stringify({
      pid: process.pid,
      cpu: process.cpuUsage(),
      memory: process.memoryUsage(),
      gc: !!gc,
      store: await describeStore(this.store),
      bus: this.bus.constructor.name,
      events: this.events,
    });
  }

  @McpTool({ name: 'bench_seed', description: 'Adds idle working tasks straight to the store.', input: BenchSeedDto })
  async seed(args: BenchSeedDto, ctx: ToolContext): Promise<string> {
    const started = now();
    const mine: string[] = [];
    const limits = { maxPerOwner: Infinity, maxTotal: Infinity };
    const base = Date.now();
    const others = `bench-user-${randomBytes(4).toString('hex')}`;
    const record = (i: number): TaskRecord => {
      const own = i < args.mine;
      const owner = own
        ? ctx.principal.key
        : JSON.stringify([
            `${others}-${Math.floor(i / TASKS_PER_OTHER_OWNER)}`,
            'mcp-tasks-demo',
            'bench-client',
            'http://127.0.0.1/mcp',
          ]);
      const task: TaskRecord = {
        id: randomBytes(18).toString('base64url'),
        owner,
        tool: 'slow_compute',
        status: 'working',
        inputRequests: {},
        inputResponses: {},
        requiredScopes: [],
        createdAt: base,
        updatedAt: base,
        expiresAt: base + 3_600_000,
      };
      if (own) mine.push(task.id);
      return task;
    };
    let next = 0;
    const worker = async () => {
      while (next < args.count) await this.store.create(record(next++), limits);
    };
    await Promise.all(Array.from({ length: SEED_PARALLEL }, worker));
    return JSON.stringify({ ids: mine, ms: now() - started });
  }

  @McpTool({
    name: 'bench_wait',
    description: 'A task that waits until it is cancelled and records when its signal fired.',
    task: 'required',
  })
  async wait(_args: object, ctx: ToolContext): Promise<string> {
    await new Promise<void>((resolve) => {
      const fired = () => {
        this.aborts.set(ctx.taskId ?? '', now());
        resolve();
      };
      if (ctx.signal.aborted) fired();
      else ctx.signal.addEventListener('abort', fired, { once: true });
    });
    return 'cancelled';
  }

  @McpTool({
    name: 'bench_aborts',
    description: 'When each listed task saw its signal fire (epoch ms, sub-ms precision).',
    input: BenchIdsDto,
  })
  aborted(args: BenchIdsDto): string {
    return JSON.stringify(Object.fromEntries(args.ids.map((id) => [id, this.aborts.get(id) ?? null])));
  }
}

/** The store's class, and the database behind it when it is a TypeORM one. */
async function describeStore(store: TaskStore): Promise<string> {
  const kind = store.constructor.name;
  const withSource = store as unknown as { dataSource?: () => Promise<{ options: { type: string } }> };
  if (typeof withSource.dataSource !== 'function') return kind;
  try {
    return `${kind}/${(await withSource.dataSource()).options.type}`;
  } catch {
    return kind;
  }
}
