import { Inject, Injectable } from '@nestjs/common';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { toDetailedWireTask } from '../tasks/task.mapper.js';
import type { McpAnswerHandler } from './method-handler.interface.js';
import type { McpRequest } from './mcp-request.interface.js';
import { TaskLookup } from './task.lookup.js';

type Answer = Record<string, unknown>;

/**
 * `tasks/get`: the task as it is now (the hot path, served without the SDK), behind the task guards: for anyone but
 * the owner a task is answered exactly like one that does not exist.
 */
@Injectable()
export class TaskGetHandler implements McpAnswerHandler {
  private readonly get: TaskHandler<Promise<Answer>>;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) options: ResolvedOptions,
    private readonly tasks: TaskLookup,
    guards: TaskGuards,
  ) {
    this.get = guards.protect(this, 'get', (task) => ({
      resultType: 'complete',
      ...toDetailedWireTask(task, options.pollInterval),
    }));
  }

  handle(req: McpRequest): Promise<Answer> {
    return this.tasks.lookup(req.params.taskId, req.session).then((task) => this.get(task, req.principal));
  }
}
