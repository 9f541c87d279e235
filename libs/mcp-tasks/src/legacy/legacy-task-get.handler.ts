import { Inject, Injectable } from '@nestjs/common';
import { TaskLookup } from '../dispatcher/task.lookup.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';
import { toLegacyTask, type LegacyTask } from './legacy-task.view.js';

/**
 * 2025-11-25 `tasks/get`: any task of the caller's (whichever wire created it) as that revision shapes it. Lookup
 * and guards are those of 2026-07-28: anyone but the owner gets exactly the answer for an unknown task.
 */
@Injectable()
export class LegacyTaskGetHandler implements LegacyMethodHandler {
  private readonly get: TaskHandler<Promise<LegacyTask>>;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) options: ResolvedOptions,
    private readonly tasks: TaskLookup,
    guards: TaskGuards,
  ) {
    this.get = guards.protect(this, 'get', (task) => toLegacyTask(task, options.pollInterval));
  }

  async serve(req: LegacyRequest, x: LegacyExchange): Promise<void> {
    const task = await this.tasks.lookup(req.params.taskId, req.session?.id);
    x.reply(req.id).result({ ...(await this.get(task, req.principal)) });
  }
}
