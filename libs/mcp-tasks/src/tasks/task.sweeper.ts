import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectTaskStore, InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskStore } from '../store/task-store.interface.js';
import { INTERRUPTED } from './task-ending.js';

const BATCH = 500;
const MAX_INTERVAL = 60_000;

/**
 * Housekeeping every instance does (stores make it safe to do at once): deletes expired tasks in
 * batches — reads already hide them, this frees space — and ends `failed` the tasks whose runner's
 * lease lapsed (the instance died), telling listeners.
 */
@Injectable()
export class TaskSweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private timer?: NodeJS.Timeout;
  private reclaimer?: NodeJS.Timeout;
  /** When the lease reclaimer last ran (and whether it could reach the store): read by the health indicator. */
  lastReclaim?: { at: number; ok: boolean };

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
  ) {}

  onModuleInit(): void {
    this.reclaimer = setInterval(() => void this.reclaim(), this.reclaimInterval);
    this.reclaimer.unref();
    // Even without a server ttl: a 2025-11-25 client may ask for one.
    this.timer = setInterval(() => void this.sweep(), Math.min(this.options.ttl ?? MAX_INTERVAL, MAX_INTERVAL));
    this.timer.unref();
  }

  /** Fails the tasks of dead runners; returns their ids. */
  async reclaim(now = Date.now()): Promise<string[]> {
    try {
      const ids = await this.store.reclaimExpiredLeases(now, BATCH, INTERRUPTED);
      for (const id of ids) await this.bus.publish({ type: 'status-changed', taskId: id, status: 'failed' });
      this.lastReclaim = { at: now, ok: true };
      return ids;
    } catch (err) {
      this.lastReclaim = { at: now, ok: false };
      this.logger.warn(`lease reclaim failed: ${(err as Error).message}`);
      return [];
    }
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

  /** How often the reclaimer runs, in ms. */
  get reclaimInterval(): number {
    return Math.max(100, Math.floor(this.options.lease / 2));
  }

  /** Whether the reclaimer is scheduled (from startup to shutdown). */
  get running(): boolean {
    return this.reclaimer !== undefined;
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    clearInterval(this.reclaimer);
    this.reclaimer = undefined;
  }
}
