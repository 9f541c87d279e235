import { Inject, Injectable } from '@nestjs/common';
import { InjectTaskEventBus, InjectTaskStore } from '../decorators/inject.decorators.js';
import type { TaskEventBus } from '../events/task-event-bus.interface.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { cjsExports, loadPeer } from '../peers/optional-peer.js';
import type { TaskStore } from '../store/task-store.interface.js';
import { TaskSweeper } from '../tasks/task.sweeper.js';
import { healthOf, type McpTasksHealth } from './health.checks.js';

/**
 * A terminus `HealthIndicatorResult`: the key, with `status` and the details.
 * @publicApi
 */
export type McpTasksHealthResult = Record<string, { status: 'up' | 'down' } & Record<string, unknown>>;

type Terminus = {
  HealthIndicatorService: new () => {
    check(key: string): { up(data: object): McpTasksHealthResult; down(data: object): McpTasksHealthResult };
  };
};

/**
 * A `@nestjs/terminus` health indicator for one registration: the store answers, the PostgreSQL bus is connected,
 * the lease sweeper runs, and live tasks are under `maxTasks`. `@nestjs/terminus` is loaded on the first check
 * (an optional peer: an app without health checks never loads it).
 *
 * ```ts
 * @Get('health') @HealthCheck()
 * check() { return this.health.check([() => this.mcp.isHealthy('mcp-tasks')]); }
 * ```
 * @publicApi
 */
@Injectable()
export class McpTasksHealthIndicator {
  private terminus?: Terminus;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
    private readonly sweeper: TaskSweeper,
  ) {}

  /** The terminus result under `key`: `up`, or `down` with what is wrong (a health check then answers 503). */
  async isHealthy(key = 'mcp-tasks'): Promise<McpTasksHealthResult> {
    this.terminus ??= cjsExports<Terminus>(await loadPeer('@nestjs/terminus', 'McpTasksHealthIndicator'));
    const health = await this.check();
    const session = new this.terminus.HealthIndicatorService().check(key);
    return health.healthy ? session.up(health.details) : session.down(health.details);
  }

  /** The same facts without terminus. */
  check(): Promise<McpTasksHealth> {
    return healthOf(this.options, this.store, this.bus, this.sweeper, Date.now());
  }
}
