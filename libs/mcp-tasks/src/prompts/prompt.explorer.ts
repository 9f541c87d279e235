import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { requiredScopesOf } from '../decorators/required-scopes.decorator.js';
import { ProviderScanner, type ScannedMethod } from '../discovery/provider.scanner.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { unsupportedRouteParam } from '../pipeline/route-params.js';
import { McpFeatures } from '../sdk/mcp-features.js';
import { visibleTo } from '../sdk/scoped-list.js';
import type { McpPromptOptions } from './mcp-prompt.decorator.js';
import { promptArgumentsOf } from './prompt-arguments.factory.js';
import { MCP_PROMPT_METADATA } from './prompt.constants.js';
import type { PromptDefinition } from './prompt-definition.js';
import { PromptRegistry } from './prompt.registry.js';

/**
 * Finds `@McpPrompt` methods at bootstrap (through `ProviderScanner`) and registers them; when the app has any, the
 * server advertises `prompts` and answers `prompts/list` (each caller sees the prompts its scopes allow).
 */
@Injectable()
export class PromptExplorer implements OnModuleInit {
  constructor(
    private readonly providers: ProviderScanner,
    private readonly registry: PromptRegistry,
    private readonly reflector: Reflector,
    private readonly features: McpFeatures,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  onModuleInit(): void {
    const read = (method: Function) => this.reflector.get<McpPromptOptions | undefined>(MCP_PROMPT_METADATA, method);
    for (const found of this.providers.scan({ read, decorator: '@McpPrompt', plural: 'prompts' })) this.register(found);
    const prompts = this.registry.list();
    if (prompts.length === 0) return;
    const listed = prompts.map((p) => ({ requiredScopes: p.requiredScopes, wire: wireOf(p) }));
    this.features.offer({
      capability: 'prompts',
      // McpPromptNotifier announces it, in each era.
      value: () => ({ listChanged: true }),
      lists: { 'prompts/list': (caller) => ({ prompts: visibleTo(listed, caller, this.options).map((p) => p.wire) }) },
    });
  }

  private register(found: ScannedMethod<McpPromptOptions>): void {
    const { instance, proto, methodName, token, requestScoped, cls, meta: options } = found;
    const where = `${cls.name}.${methodName}`;
    if (typeof options.name !== 'string' || options.name === '')
      throw new Error(`McpTasksModule: @McpPrompt on ${where} needs a name`);
    const param = unsupportedRouteParam(cls, methodName);
    if (param !== undefined) {
      throw new Error(
        `McpTasksModule: @McpPrompt on ${where}: parameter ${param} takes a route decorator a prompt has no value ` +
          'for (@Res, @Next, @Session, …); a prompt gets @Body/@Query/@Param (its arguments), @Req, @Headers, @Ip, ' +
          '@ToolArgs and @ToolCtx, and returns its messages',
      );
    }
    this.registry.add({
      name: options.name,
      options,
      arguments: promptArgumentsOf(options.args),
      requiredScopes: requiredScopesOf(this.reflector, cls, proto[methodName]!),
      instance,
      token,
      requestScoped,
      methodName,
    });
  }
}

/** A prompt as `prompts/list` shows it. */
const wireOf = (p: PromptDefinition): Record<string, unknown> => ({
  name: p.name,
  ...(p.options.title !== undefined ? { title: p.options.title } : {}),
  ...(p.options.description !== undefined ? { description: p.options.description } : {}),
  ...(p.arguments.length > 0 ? { arguments: p.arguments } : {}),
});
