import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MAX_TIMER_MS } from '../common/long-timeout.js';
import { InjectTaskStore } from '../decorators/inject.decorators.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { isSharedTaskStore } from '../store/capabilities/shared-task-store.interface.js';
import { hasTaskQueries, type TaskQueries } from '../store/capabilities/task-queries.interface.js';
import type { TaskStore } from '../store/task-store.interface.js';
import { otherLeaseHolder } from './lease-holders.js';
import { TaskRunner } from './task.runner.js';

/**
 * Another instance running tasks in this one's store while the bus is the default in-process one: it works, but a
 * cancel or an answer sent to one instance reaches the task running on the other only when that one re-reads the
 * store. Said once, when it is so: another instance is seen holding a lease. Looked for only in a store that
 * declares itself shared across processes (`SharedTaskStore`) and can list its tasks (`TaskQueries`). The live
 * tasks' leases are read every two lease periods, the first time two lease periods after startup: by then the
 * leases of an instance that died before this one started (a restart) have lapsed. An explicit `bus` (even
 * `new LocalTaskEventBus()`) means the app chose: nothing is read.
 */
@Injectable()
export class SharedStoreWarning implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private timer?: NodeJS.Timeout;
  private busy = false;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    private readonly runner: TaskRunner,
  ) {}

  onApplicationBootstrap(): void {
    // A store no other process opens has no other instance in it; one that cannot list tasks cannot tell.
    const store = this.store;
    if (this.options.bus || !isSharedTaskStore(store) || !hasTaskQueries(store)) return;
    this.timer = setInterval(() => void this.check(store), Math.min(2 * this.options.lease, MAX_TIMER_MS));
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async check(store: TaskQueries): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const other = await otherLeaseHolder(store, this.options.server.name, this.runner.instanceId, Date.now());
      if (other === undefined || this.timer === undefined) return;
      clearInterval(this.timer);
      this.timer = undefined;
      this.logger.warn(this.warning(other));
    } catch {
      // The store is unreachable: the health indicator and the runner say so; the next check tries again.
    } finally {
      this.busy = false;
    }
  }

  private warning(other: string): string {
    const { server, pollInterval } = this.options;
    return (
      `server "${server.name}" (instance ${this.runner.instanceId}): instance ${other} runs tasks in the same ` +
      'store, but the event bus is in-process: cancels and answers sent to one instance reach a task running on ' +
      `another only when that one re-reads the store (every pollInterval, ${pollInterval} ms). To relay them at ` +
      "once, set bus: { type: 'postgres' } (LISTEN/NOTIFY on PostgreSQL) or another bus every instance shares; to " +
      'keep the in-process bus and not be told, pass it: bus: new LocalTaskEventBus().'
    );
  }
}
