import type { ExecutionContext, Type } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';
import { MCP_CONTEXT_TYPE } from '../mcp-tasks.constants.js';

const unsupported = (): never => {
  throw new Error('an mcp context is neither RPC nor WebSocket: read it with McpExecutionContext');
};

/**
 * The `ExecutionContext` the scopes guard sees for a proxied call when none of the app's code runs in its pipeline:
 * type `mcp`, `[req, res, McpCall]`, as Nest's context creator would make it, without building Nest's pipeline.
 */
export class ProxiedCallContext implements ExecutionContext {
  private readonly args: [unknown, unknown, McpCall];

  constructor(
    private readonly cls: Type,
    private readonly handler: Function,
    req: unknown,
    res: unknown,
    call: McpCall,
  ) {
    this.args = [req, res, call];
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
    return MCP_CONTEXT_TYPE as T;
  }
  switchToHttp = () => {
    const [req, res] = this.args;
    return { getRequest: <T>() => req as T, getResponse: <T>() => res as T, getNext: <T>() => undefined as T };
  };
  switchToRpc = unsupported;
  switchToWs = unsupported;
}
