import { Inject, Injectable } from '@nestjs/common';
import { InjectTaskStore } from '../decorators/inject.decorators.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { isBoundElsewhere } from '../tasks/task-binding.js';
import { isPlausibleTaskId } from '../tasks/task-id.js';

/** The task a request names, as every `tasks/*` method of both wires (and a 2025-11-25 answer) looks it up. */
@Injectable()
export class TaskLookup {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
  ) {}

  /**
   * The task, or the one answer for a task that is not there or bound to another session (the guards then decide
   * who may see it).
   */
  lookup(id: unknown, session?: string): Promise<TaskRecord> {
    if (typeof id !== 'string' || id.length === 0) {
      return Promise.reject(RpcError.invalidParams('taskId must be a non-empty string'));
    }
    // No store can hold such an id (PostgreSQL even refuses NUL): answer as for any unknown task.
    if (!isPlausibleTaskId(id)) return Promise.reject(RpcError.taskNotFound());
    // `then`, not `await` in an async function: one promise, not three (the `tasks/get` hot path).
    return this.store.get(id, Date.now()).then((task) => {
      if (!task || isBoundElsewhere(task, session, !!this.options.auth)) throw RpcError.taskNotFound();
      return task;
    });
  }
}
