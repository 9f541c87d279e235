import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { REQUIRED_SCOPES_METADATA, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { McpToolOptions, TaskPolicy, TaskPolicyFn } from '../decorators/mcp-tool.decorator.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { inputSchemaFor } from './input-schema.factory.js';
import { ToolMetadataAccessor } from './tool-metadata.accessor.js';
import { ToolRegistry } from './tool.registry.js';

/** Finds `@McpTool` methods on every provider at bootstrap and registers them. */
@Injectable()
export class ToolExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly accessor: ToolMetadataAccessor,
    private readonly registry: ToolRegistry,
    private readonly reflector: Reflector,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || !wrapper.isDependencyTreeStatic() || typeof instance !== 'object') continue;
      const proto = Object.getPrototypeOf(instance) as Record<string, Function>;
      for (const methodName of this.scanner.getAllMethodNames(proto)) {
        this.register(instance, proto, methodName);
      }
    }
  }

  private register(instance: object, proto: Record<string, Function>, methodName: string): void {
    const options = this.accessor.getToolOptions(proto[methodName]);
    if (!options) return;
    const where = `${instance.constructor.name}.${methodName}`;
    if (options.prepare && typeof proto[options.prepare] !== 'function') {
      throw new Error(
        `McpTasksModule: @McpTool on ${where} names prepare method "${options.prepare}", which does not exist`,
      );
    }
    this.registry.add({
      name: options.name ?? methodName,
      options,
      // With the extension switched off every tool runs in the request.
      policy: this.options.tasks ? policyOf(options.task) : 'sync',
      inputSchema: inputSchemaFor(options.input),
      requiredScopes: [
        ...new Set(
          this.reflector.getAllAndMerge<string[]>(REQUIRED_SCOPES_METADATA, [instance.constructor, proto[methodName]]),
        ),
      ],
      instance,
      methodName,
    });
  }
}

/** `task: true` is `'optional'` by another name; absent is `'sync'`. */
const policyOf = (task: McpToolOptions['task']): TaskPolicy | TaskPolicyFn =>
  task === true ? 'optional' : (task ?? 'sync');
