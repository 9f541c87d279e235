import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { MCP_TASKS_OPTIONS, type ResolvedOptions } from '../options/resolved-options.js';
import { TaskStore } from '../store/task-store.interface.js';

const BATCH = 500;
const MAX_INTERVAL = 60_000;

/** Deletes expired tasks in batches. Reads already hide expired tasks; this only frees space. */
@Injectable()
export class TaskSweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @Inject(TaskStore) private readonly store: TaskStore,
  ) {}

  onModuleInit(): void {
    if (this.options.ttl === null) return;
    this.timer = setInterval(() => void this.sweep(), Math.min(this.options.ttl, MAX_INTERVAL));
    this.timer.unref();
  }

  /** Sweeps until a batch comes back short; returns how many tasks it removed. */
  async sweep(now = Date.now()): Promise<number> {
    let total = 0;
    try {
      for (let n = BATCH; n === BATCH; total += n) n = await this.store.sweep(now, BATCH);
    } catch (err) {
      this.logger.warn(`sweep failed: ${(err as Error).message}`);
    }
    return total;
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
