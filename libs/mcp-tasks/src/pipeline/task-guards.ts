import { Inject, Injectable, type CanActivate } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import { TaskOwnershipGuard } from '../guards/task-ownership.guard.js';
import { MCP_TASK_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import type { TaskRecord } from '../store/task.record.js';
import { NestPipelines, type Pipeline } from './nest-pipelines.js';

/** A handler of an access to a task, called with what its guards see: `(task, principal, ...)`. */
export type TaskHandler<R> = (task: TaskRecord, principal: Principal, ...rest: any[]) => R;

/**
 * Puts the handlers of `tasks/get|update|cancel` and listening behind Nest guards, run as for a controller
 * method: the app's global guards, then the ownership guard (`guards.ownership`). They see an `ExecutionContext`
 * of type `mcp-task` with the arguments `[task, principal]`. A guard that returns `false` refuses with 403; one
 * that throws refuses with what it threw.
 */
@Injectable()
export class TaskGuards {
  constructor(
    private readonly nest: NestPipelines,
    @Inject(TaskOwnershipGuard) private readonly ownership: CanActivate,
  ) {}

  /** `handler` behind the guards; `name` is the handler's name in the `ExecutionContext`. */
  protect<R>(instance: object, name: string, handler: TaskHandler<R>): TaskHandler<Promise<Awaited<R>>> {
    let pipeline: Pipeline | undefined;
    return (...args) => {
      // Built on first use, once the app has registered its global guards.
      pipeline ??= this.nest.guarded(instance, handler, name, [this.ownership], MCP_TASK_CONTEXT_TYPE);
      return pipeline(...args);
    };
  }
}
