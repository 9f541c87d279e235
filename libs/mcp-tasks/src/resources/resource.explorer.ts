import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from '../common/principal.interface.js';
import { requiredScopesOf } from '../decorators/required-scopes.decorator.js';
import { ProviderScanner, type ScannedMethod } from '../discovery/provider.scanner.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { unsupportedRouteParam } from '../pipeline/route-params.js';
import { McpFeatures } from '../sdk/mcp-features.js';
import { visibleTo } from '../sdk/scoped-list.js';
import type { McpResourceTemplateOptions } from './mcp-resource-template.decorator.js';
import type { McpResourceOptions } from './mcp-resource.decorator.js';
import { MCP_RESOURCE_METADATA, MCP_RESOURCE_TEMPLATE_METADATA } from './resource.constants.js';
import type { ResourceDefinition } from './resource-definition.js';
import { ResourceRegistry } from './resource.registry.js';
import { UriTemplateMatcher } from './uri-template.matcher.js';

type Options = McpResourceOptions | McpResourceTemplateOptions;

/**
 * Finds `@McpResource` and `@McpResourceTemplate` methods at bootstrap (`ProviderScanner`: the providers tools are
 * found on, with the same refusals), registers them, and offers the `resources` capability with its two lists
 * (filtered by the caller's scopes, as `tools/list` is) when there is any.
 */
@Injectable()
export class ResourceExplorer implements OnModuleInit {
  constructor(
    private readonly providers: ProviderScanner,
    private readonly registry: ResourceRegistry,
    private readonly reflector: Reflector,
    private readonly features: McpFeatures,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  onModuleInit(): void {
    const read = (key: string) => (method: Function) => this.reflector.get<Options | undefined>(key, method);
    const statics = this.providers.scan({
      read: read(MCP_RESOURCE_METADATA),
      decorator: '@McpResource',
      plural: 'resources',
    });
    const templates = this.providers.scan({
      read: read(MCP_RESOURCE_TEMPLATE_METADATA),
      decorator: '@McpResourceTemplate',
      plural: 'resource templates',
    });
    for (const found of statics)
      this.registry.add(this.definition(found as ScannedMethod<McpResourceOptions>, 'static'));
    for (const found of templates) {
      this.registry.add(this.definition(found as ScannedMethod<McpResourceTemplateOptions>, 'template'));
    }
    if (this.registry.size === 0) return;
    const list = <T extends { requiredScopes: string[]; listed: Record<string, unknown> }>(all: T[], c: Principal) =>
      visibleTo(all, c, this.options).map((r) => r.listed);
    this.features.offer({
      capability: 'resources',
      // McpResourceNotifier announces both, in each era (2026-07-28 subscriptions/listen, 2025 GET streams).
      value: () => ({ subscribe: true, listChanged: true }),
      lists: {
        'resources/list': (caller) => ({ resources: list(this.registry.resources(), caller) }),
        'resources/templates/list': (caller) => ({
          resourceTemplates: list(this.registry.resourceTemplates(), caller),
        }),
      },
    });
  }

  private definition(found: ScannedMethod<Options>, kind: 'static' | 'template'): ResourceDefinition {
    const { instance, token, requestScoped, methodName, cls, proto, meta } = found;
    const where = `${cls.name}.${methodName}`;
    const decorator = kind === 'static' ? '@McpResource' : '@McpResourceTemplate';
    const param = unsupportedRouteParam(cls, methodName);
    if (param !== undefined) {
      throw new Error(
        `McpTasksModule: ${decorator} on ${where}: parameter ${param} takes a route decorator a resource read has ` +
          'no value for (@Res, @Next, @Session, …); it gets its URI variables (@ToolArgs, @Body), @Req, @Headers, ' +
          '@Ip and @ToolCtx, and returns the contents',
      );
    }
    const target = { instance, token, requestScoped, methodName };
    const requiredScopes = requiredScopesOf(this.reflector, cls, proto[methodName]!);
    const { title, description, mimeType, annotations } = meta;
    const common = {
      name: meta.name,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(mimeType ? { mimeType } : {}),
      ...(annotations ? { annotations } : {}),
    };
    if (kind === 'static') {
      const options = meta as McpResourceOptions;
      if (typeof options.uri !== 'string' || !options.uri)
        throw new Error(`McpTasksModule: @McpResource on ${where} needs a uri`);
      return { kind, name: meta.name, options, requiredScopes, target, listed: { uri: options.uri, ...common } };
    }
    const options = meta as McpResourceTemplateOptions;
    let matcher: UriTemplateMatcher;
    try {
      matcher = new UriTemplateMatcher(options.uriTemplate);
    } catch (err) {
      throw new Error(`McpTasksModule: @McpResourceTemplate on ${where}: ${(err as Error).message}`);
    }
    const listed = { uriTemplate: options.uriTemplate, ...common };
    return { kind, name: meta.name, options, matcher, requiredScopes, target, listed };
  }
}
