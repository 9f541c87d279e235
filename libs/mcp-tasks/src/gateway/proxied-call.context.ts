import type { Type } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';
import { MCP_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import { FixedArgsContext } from '../pipeline/fixed-args.context.js';

/**
 * The `ExecutionContext` the scopes guard sees for a proxied call when none of the app's code runs in its pipeline:
 * type `mcp`, `[req, res, McpCall]`, as Nest's context creator would make it, without building Nest's pipeline.
 */
export class ProxiedCallContext extends FixedArgsContext<[unknown, unknown, McpCall]> {
  constructor(cls: Type, handler: Function, req: unknown, res: unknown, call: McpCall) {
    super(cls, handler, [req, res, call], MCP_CONTEXT_TYPE);
  }

  switchToHttp() {
    const [req, res] = this.args;
    return { getRequest: <T>() => req as T, getResponse: <T>() => res as T, getNext: <T>() => undefined as T };
  }
}
