import { Inject, Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';

type Proto = Record<string, Function>;
/** What `DiscoveryService` lists (Nest's `InstanceWrapper`, named here through its public API). */
type InstanceWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/** One decorated method found on a provider or controller. */
export interface ScannedMethod<M> {
  /** The instance to call (a stand-in of its class when request-scoped: calls resolve their own). */
  instance: object;
  proto: Proto;
  methodName: string;
  /** The provider's injection token. */
  token: string | symbol | Function;
  /** Request-scoped (or depending on `REQUEST`): each call gets an instance of its own. */
  requestScoped: boolean;
  cls: Function;
  /** What the decorator stored on the method. */
  meta: M;
}

/** What is looked for: how a method's metadata is read, and how errors name it (`@McpTool`, `tools`). */
export interface ScanFor<M> {
  read: (method: Function) => M | undefined;
  decorator: string;
  plural: string;
}

/**
 * Walks the providers and controllers of `options.include` (else of every module) for methods a decorator marked.
 * Singletons are used as they are; request-scoped ones get a stand-in of their class; a transient provider cannot
 * hold such methods (whose instance would a call use?) and fails startup, as does a guard, interceptor, pipe, filter
 * or middleware class (Nest makes those per use, not as a provider). An alias (`useExisting`) is the same provider,
 * so its methods are found once.
 */
@Injectable()
export class ProviderScanner {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly modules: ModulesContainer,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  scan<M>(what: ScanFor<M>): Array<ScannedMethod<M>> {
    const found: Array<ScannedMethod<M>> = [];
    const seen = new Set<unknown>();
    const classes = new Set<Function>();
    const include = this.options.include;
    const filter = include ? { include } : undefined;
    for (const wrapper of [...this.discovery.getProviders(filter), ...this.discovery.getControllers(filter)]) {
      if (wrapper.isAlias) continue;
      const target = this.target(wrapper);
      if (!target || seen.has(target.key)) continue;
      seen.add(target.key);
      classes.add(target.proto.constructor);
      for (const methodName of this.marked(target.proto, what)) {
        if (wrapper.isTransient) throw new Error(transient(wrapper, methodName, what));
        const { instance, proto, scoped } = target;
        const meta = what.read(proto[methodName]!)!;
        const token = wrapper.token as string | symbol | Function;
        found.push({ instance, proto, methodName, token, requestScoped: scoped, cls: instance.constructor, meta });
      }
    }
    this.refuseOnEnhancers(classes, what);
    return found;
  }

  private marked(proto: Proto, what: ScanFor<unknown>): string[] {
    return this.scanner.getAllMethodNames(proto).filter((name) => what.read(proto[name]!) !== undefined);
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
   * for where they are used, never as the provider a call would reach: a decorated method there fails startup.
   */
  private refuseOnEnhancers(providers: Set<Function>, what: ScanFor<unknown>): void {
    const include = this.options.include;
    for (const module of this.modules.values()) {
      if (include && !include.includes(module.metatype)) continue;
      for (const wrapper of [...module.injectables.values(), ...module.middlewares.values()]) {
        const cls = wrapper.metatype as (Function & { prototype?: Proto }) | null;
        if (!cls?.prototype || providers.has(cls)) continue;
        const [method] = this.marked(cls.prototype, what);
        if (method === undefined) continue;
        throw new Error(
          `McpTasksModule: ${what.decorator} on ${cls.name}.${method}: ${cls.name} is a guard, interceptor, pipe, ` +
            `filter or middleware, which Nest creates for where it is used, not as a provider; move the method to ` +
            `a provider or controller (or add ${cls.name} to a module's providers)`,
        );
      }
    }
  }
}

const transient = (wrapper: InstanceWrapper, methodName: string, what: ScanFor<unknown>): string =>
  `McpTasksModule: ${what.decorator} on ${String(wrapper.name)}.${methodName}: the provider ${String(wrapper.name)} ` +
  `is transient (Scope.TRANSIENT), which ${what.plural} cannot live on; make it a singleton (the default) or ` +
  'request-scoped';
