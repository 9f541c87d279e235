import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { McpToolOptions } from '../decorators/mcp-tool.decorator.js';
import { MCP_TOOL_METADATA } from '../mcp-tasks.constants.js';

/** Reads `@McpTool` metadata off a method. */
@Injectable()
export class ToolMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getToolOptions(method: Function): McpToolOptions | undefined {
    return this.reflector.get<McpToolOptions | undefined>(MCP_TOOL_METADATA, method);
  }
}
