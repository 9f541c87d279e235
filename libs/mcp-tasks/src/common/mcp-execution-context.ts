import type { ExecutionContext } from '@nestjs/common';
import { MCP_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import type { ToolContext } from './tool-context.interface.js';

/** Reads the tool's arguments and `ToolContext` out of a guard's or interceptor's `ExecutionContext`. */
export const McpContext = {
  isMcp: (ec: ExecutionContext): boolean => ec.getType<string>() === MCP_CONTEXT_TYPE,
  args: <T = Record<string, unknown>>(ec: ExecutionContext): T => ec.getArgByIndex(0) as T,
  tool: (ec: ExecutionContext): ToolContext => ec.getArgByIndex(1) as ToolContext,
};
