import { Injectable } from '@nestjs/common';
import { paramHeadersOf } from './param-headers.reader.js';
import type { ToolDefinition } from './tool-definition.js';

const whereIs = (tool: ToolDefinition): string => `${tool.instance.constructor.name}.${tool.methodName}`;

/**
 * Every tool this server exposes, by name, in a stable order.
 * @publicApi
 */
@Injectable()
export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();

  add(tool: ToolDefinition): void {
    if (this.tools.has(tool.name)) {
      const prior = this.tools.get(tool.name)!;
      throw new Error(
        `McpTasksModule: duplicate tool name "${tool.name}" ` + `(${whereIs(prior)} and ${whereIs(tool)})`,
      );
    }
    // SEP-2243's rules for `@McpHeader` arguments: a break fails startup, naming the tool and the property.
    paramHeadersOf(tool.name, tool.inputSchema, tool.options.input);
    this.tools.set(tool.name, tool);
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  /** In discovery order (module import order, then method order): stable across calls and restarts. */
  list(): ToolDefinition[] {
    return [...this.tools.values()];
  }
}
