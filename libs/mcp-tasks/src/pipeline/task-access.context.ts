import type { ExecutionContext, Type } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import { MCP_TASK_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import type { TaskRecord } from '../store/task.record.js';

const unsupported = (): never => {
  throw new Error('an mcp-task context is neither HTTP, RPC nor WebSocket: read it with McpExecutionContext');
};

/** The `ExecutionContext` the ownership guard sees for an access to a task: type `mcp-task`, `[task, principal]`. */
export class TaskAccessContext implements ExecutionContext {
  private readonly args: [TaskRecord, Principal];

  constructor(
    private readonly cls: Type,
    private readonly handler: Function,
    task: TaskRecord,
    principal: Principal,
  ) {
    this.args = [task, principal];
  }

  getClass<T>(): Type<T> {
    return this.cls as Type<T>;
  }
  getHandler(): Function {
    return this.handler;
  }
  getArgs<T extends any[]>(): T {
    return this.args as unknown as T;
  }
  getArgByIndex<T>(index: number): T {
    return this.args[index] as T;
  }
  getType<T extends string>(): T {
    return MCP_TASK_CONTEXT_TYPE as T;
  }
  switchToHttp = unsupported;
  switchToRpc = unsupported;
  switchToWs = unsupported;
}
