import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectTaskStore } from '../decorators/inject.decorators.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { DataSourceTaskStore } from '../store/data-source-task.store.js';
import type { TaskStore } from '../store/task-store.interface.js';

/**
 * A store several instances share (TypeORM on anything but SQLite) with the default in-process bus: it works, but a
 * cancel or an answer sent to one instance reaches the task running on another only when that one re-reads the
 * store. Said once at startup, with the fix.
 */
@Injectable()
export class SharedStoreWarning implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpTasks');

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.bus || !(this.store instanceof DataSourceTaskStore)) return;
    const type = (await this.store.dataSource().catch(() => undefined))?.options.type;
    if (!type || type === 'better-sqlite3' || type === 'sqlite') return;
    this.logger.warn(
      `server "${this.options.server.name}": tasks are in a shared ${type} store, but the event bus is in-process: ` +
        'cancels and answers sent to another instance reach the one running the task only when it re-reads the ' +
        `store (every pollInterval, ${this.options.pollInterval} ms). To relay them at once, set ` +
        "bus: { type: 'postgres' } (LISTEN/NOTIFY on the same database).",
    );
  }
}
