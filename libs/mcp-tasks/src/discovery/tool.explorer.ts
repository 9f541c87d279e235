import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import { requiredScopesOf } from '../decorators/required-scopes.decorator.js';
import type { McpToolOptions, TaskPolicy, TaskPolicyFn } from '../decorators/mcp-tool.decorator.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { unsupportedRouteParam } from '../pipeline/route-params.js';
import { ProviderScanner, type ScannedMethod } from './provider.scanner.js';
import { inputSchemaFor } from './input-schema.factory.js';
import { outputSchemaFor } from './output-schema.factory.js';
import { resumeOf } from './resume-options.check.js';
import { serializerOptionsOf } from './serializer-options.reader.js';
import { ToolMetadataAccessor } from './tool-metadata.accessor.js';
import { ToolRegistry } from './tool.registry.js';

/**
 * Finds `@McpTool` methods at bootstrap (through `ProviderScanner`: which providers, request scope, what fails
 * startup) and registers them.
 */
@Injectable()
export class ToolExplorer implements OnModuleInit {
  constructor(
    private readonly providers: ProviderScanner,
    private readonly accessor: ToolMetadataAccessor,
    private readonly registry: ToolRegistry,
    private readonly reflector: Reflector,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  onModuleInit(): void {
    const read = (method: Function) => this.accessor.getToolOptions(method);
    for (const found of this.providers.scan({ read, decorator: '@McpTool', plural: 'tools' })) {
      this.register(found);
    }
  }

  private register(found: ScannedMethod<McpToolOptions>) {
    const { instance, proto, methodName, token, requestScoped, cls, meta: options } = found;
    const where = `${cls.name}.${methodName}`;
    if (options.prepare && typeof proto[options.prepare] !== 'function') {
      throw new Error(
        `McpTasksModule: @McpTool on ${where} names prepare method "${options.prepare}", which does not exist`,
      );
    }
    const param = unsupportedRouteParam(cls, methodName);
    if (param !== undefined) {
      throw new Error(
        `McpTasksModule: @McpTool on ${where}: parameter ${param} takes a route decorator a tool call has no value ` +
          'for (@Res, @Next, @Session, @UploadedFile, @HostParam, …); a tool gets @Body/@Query/@Param (its ' +
          'arguments), @Req, @Headers, @Ip, @ToolArgs and @ToolCtx, and returns its result',
      );
    }
    const resume = resumeOf(options, where);
    this.registry.add({
      name: options.name ?? methodName,
      options,
      // With the extension switched off every tool runs in the request.
      policy: this.options.tasks ? policyOf(options.task) : 'sync',
      inputSchema: inputSchemaFor(options.input),
      outputSchema: outputSchemaFor(options.output),
      result: {
        serializer: serializerOptionsOf(this.reflector, this.options.serializer, cls, proto[methodName]!),
        output: options.output,
      },
      requiredScopes: requiredScopesOf(this.reflector, cls, proto[methodName]!),
      instance,
      token,
      requestScoped,
      methodName,
      ...(resume ? { resume } : {}),
    });
  }
}

/** `task: true` is `'optional'` by another name; absent is `'sync'`. */
const policyOf = (task: McpToolOptions['task']): TaskPolicy | TaskPolicyFn =>
  task === true ? 'optional' : (task ?? 'sync');
