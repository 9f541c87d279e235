import type { ExecutionContext, Type } from '@nestjs/common';

/**
 * An `ExecutionContext` over arguments fixed in advance, for a guard the library asks itself, outside Nest's pipeline:
 * what Nest's context creator would give it for `type`, without building a pipeline per call.
 */
export abstract class FixedArgsContext<A extends unknown[]> implements ExecutionContext {
  constructor(
    private readonly cls: Type,
    private readonly handler: Function,
    protected readonly args: A,
    private readonly type: string,
  ) {}

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
    return this.type as T;
  }
  abstract switchToHttp(): ReturnType<ExecutionContext['switchToHttp']>;
  switchToRpc = (): never => this.unsupported();
  switchToWs = (): never => this.unsupported();

  /** A switch this context's type has no arguments for. */
  protected unsupported(): never {
    const kinds = this.type === 'mcp' ? 'RPC nor WebSocket' : 'HTTP, RPC nor WebSocket';
    throw new Error(`an ${this.type} context is neither ${kinds}: read it with McpExecutionContext`);
  }
}
