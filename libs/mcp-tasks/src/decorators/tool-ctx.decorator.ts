import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';

/**
 * Parameter decorator: the running tool's `ToolContext` (`@ToolCtx() ctx: ToolContext`). Without parameter decorators
 * a tool method is called as `(args, ctx)`.
 * @publicApi
 */
export const ToolCtx = createParamDecorator(
  (_: unknown, ec: ExecutionContext) => (ec.getArgByIndex(2) as McpCall | undefined)?.context,
);
