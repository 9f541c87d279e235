import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import { requiredScopesOf } from '../decorators/required-scopes.decorator.js';
import type { McpToolOptions, TaskPolicy, TaskPolicyFn } from '../decorators/mcp-tool.decorator.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { inputSchemaFor } from './input-schema.factory.js';
import { ToolMetadataAccessor } from './tool-metadata.accessor.js';
import { ToolRegistry } from './tool.registry.js';

type Proto = Record<string, Function>;

/**
 * Finds `@McpTool` methods at bootstrap (on the providers of `options.include`, else of every module) and registers
 * them. Singletons are used as they are; request-scoped providers (or ones depending on `REQUEST`) get an instance
 * per call; a transient provider cannot hold tools (whose instance would a call use?) and fails startup. An alias
 * (`useExisting`) is the same provider, so its tools are not registered twice.
 */
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
    const seen = new Set<unknown>();
    const include = this.options.include;
    for (const wrapper of this.discovery.getProviders(include ? { include } : undefined)) {
      if (wrapper.isAlias) continue;
      const found = this.target(wrapper);
      if (!found || seen.has(found.key)) continue;
      seen.add(found.key);
      for (const methodName of this.scanner.getAllMethodNames(found.proto)) {
        if (!this.accessor.getToolOptions(found.proto[methodName])) continue;
        if (wrapper.isTransient) throw new Error(unsupported(wrapper, methodName));
        this.register(found.instance, found.proto, methodName, wrapper, found.scoped);
      }
    }
  }

  /** The provider's class prototype, and the instance to call (a stand-in of its class when request-scoped). */
  private target(
    wrapper: InstanceWrapper,
  ): { key: unknown; instance: object; proto: Proto; scoped: boolean } | undefined {
    if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || typeof instance !== 'object') return undefined;
      return { key: instance, instance, proto: Object.getPrototypeOf(instance) as Proto, scoped: false };
    }
    // Only a class provider says which methods it has before an instance exists.
    const cls = wrapper.metatype as (Function & { prototype: Proto }) | null;
    if (!cls || wrapper.inject) return undefined;
    return { key: cls, instance: Object.create(cls.prototype) as object, proto: cls.prototype, scoped: true };
  }

  private register(instance: object, proto: Proto, methodName: string, wrapper: InstanceWrapper, scoped: boolean) {
    const options = this.accessor.getToolOptions(proto[methodName])!;
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
      requiredScopes: requiredScopesOf(this.reflector, instance.constructor, proto[methodName]),
      instance,
      token: wrapper.token as string | symbol | Function,
      requestScoped: scoped,
      methodName,
    });
  }
}

/** `task: true` is `'optional'` by another name; absent is `'sync'`. */
const policyOf = (task: McpToolOptions['task']): TaskPolicy | TaskPolicyFn =>
  task === true ? 'optional' : (task ?? 'sync');

const unsupported = (wrapper: InstanceWrapper, methodName: string): string =>
  `McpTasksModule: @McpTool on ${String(wrapper.name)}.${methodName}: the provider ${String(wrapper.name)} is ` +
  'transient (Scope.TRANSIENT), which tools cannot live on; make it a singleton (the default) or request-scoped';
