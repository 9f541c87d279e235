import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MCP_TOOL_METADATA, type McpToolOptions } from '../decorators/mcp-tool.decorator.js';

/** Reads `@McpTool` metadata off a method. */
@Injectable()
export class ToolMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getToolOptions(method: Function): McpToolOptions | undefined {
    return this.reflector.get<McpToolOptions | undefined>(MCP_TOOL_METADATA, method);
  }
}
