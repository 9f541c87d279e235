import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import { requiredScopesOf } from '../decorators/required-scopes.decorator.js';
import type { McpToolOptions, TaskPolicy, TaskPolicyFn } from '../decorators/mcp-tool.decorator.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { unsupportedRouteParam } from '../pipeline/route-params.js';
import { inputSchemaFor } from './input-schema.factory.js';
import { outputSchemaFor } from './output-schema.factory.js';
import { resumeOf } from './resume-options.check.js';
import { serializerOptionsOf } from './serializer-options.reader.js';
import { ToolMetadataAccessor } from './tool-metadata.accessor.js';
import { ToolRegistry } from './tool.registry.js';

type Proto = Record<string, Function>;
/** What `DiscoveryService` lists (Nest's `InstanceWrapper`, named here through its public API). */
type InstanceWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/**
 * Finds `@McpTool` methods at bootstrap (on the providers and controllers of `options.include`, else of every
 * module) and registers them. Singletons are used as they are; request-scoped ones (or ones depending on `REQUEST`)
 * get an instance per call; a transient provider cannot hold tools (whose instance would a call use?) and fails
 * startup, as does a guard, interceptor, pipe, filter or middleware class (Nest makes those per use, not as a
 * provider). An alias (`useExisting`) is the same provider, so its tools are not registered twice.
 */
@Injectable()
export class ToolExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly accessor: ToolMetadataAccessor,
    private readonly registry: ToolRegistry,
    private readonly reflector: Reflector,
    private readonly modules: ModulesContainer,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  onModuleInit(): void {
    const seen = new Set<unknown>();
    const classes = new Set<Function>();
    const include = this.options.include;
    const filter = include ? { include } : undefined;
    for (const wrapper of [...this.discovery.getProviders(filter), ...this.discovery.getControllers(filter)]) {
      if (wrapper.isAlias) continue;
      const found = this.target(wrapper);
      if (!found || seen.has(found.key)) continue;
      seen.add(found.key);
      classes.add(found.proto.constructor);
      for (const methodName of this.toolMethods(found.proto)) {
        if (wrapper.isTransient) throw new Error(unsupported(wrapper, methodName));
        this.register(found.instance, found.proto, methodName, wrapper, found.scoped);
      }
    }
    this.refuseToolsOnEnhancers(classes);
  }

  private toolMethods(proto: Proto): string[] {
    return this.scanner.getAllMethodNames(proto).filter((name) => !!this.accessor.getToolOptions(proto[name]!));
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

  /**
   * Guards, interceptors, pipes, filters (`@UseGuards(AuthGuard)`, …) and middleware are classes Nest instantiates
   * for where they are used, never as the provider a tool call would reach: a tool there fails startup.
   */
  private refuseToolsOnEnhancers(providers: Set<Function>): void {
    const include = this.options.include;
    for (const module of this.modules.values()) {
      if (include && !include.includes(module.metatype)) continue;
      for (const wrapper of [...module.injectables.values(), ...module.middlewares.values()]) {
        const cls = wrapper.metatype as (Function & { prototype?: Proto }) | null;
        if (!cls?.prototype || providers.has(cls)) continue;
        const [method] = this.toolMethods(cls.prototype);
        if (method === undefined) continue;
        throw new Error(
          `McpTasksModule: @McpTool on ${cls.name}.${method}: ${cls.name} is a guard, interceptor, pipe, filter or ` +
            `middleware, which Nest creates for where it is used, not as a provider; move the method to a provider ` +
            `or controller (or add ${cls.name} to a module's providers)`,
        );
      }
    }
  }

  private register(instance: object, proto: Proto, methodName: string, wrapper: InstanceWrapper, scoped: boolean) {
    const options = this.accessor.getToolOptions(proto[methodName]!)!;
    const cls = instance.constructor;
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
      token: wrapper.token as string | symbol | Function,
      requestScoped: scoped,
      methodName,
      ...(resume ? { resume } : {}),
    });
  }
}

/** `task: true` is `'optional'` by another name; absent is `'sync'`. */
const policyOf = (task: McpToolOptions['task']): TaskPolicy | TaskPolicyFn =>
  task === true ? 'optional' : (task ?? 'sync');

const unsupported = (wrapper: InstanceWrapper, methodName: string): string =>
  `McpTasksModule: @McpTool on ${String(wrapper.name)}.${methodName}: the provider ${String(wrapper.name)} is ` +
  'transient (Scope.TRANSIENT), which tools cannot live on; make it a singleton (the default) or request-scoped';
