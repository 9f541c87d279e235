import type { Type } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import { MCP_TASK_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import type { TaskRecord } from '../store/task.record.js';
import { FixedArgsContext } from './fixed-args.context.js';

/** The `ExecutionContext` the ownership guard sees for an access to a task: type `mcp-task`, `[task, principal]`. */
export class TaskAccessContext extends FixedArgsContext<[TaskRecord, Principal]> {
  constructor(cls: Type, handler: Function, task: TaskRecord, principal: Principal) {
    super(cls, handler, [task, principal], MCP_TASK_CONTEXT_TYPE);
  }

  switchToHttp(): never {
    return this.unsupported();
  }
}
