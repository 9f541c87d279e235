import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProviderScanner, type ScannedMethod } from '../discovery/provider.scanner.js';
import { PromptRegistry } from '../prompts/prompt.registry.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import { McpFeatures } from '../sdk/mcp-features.js';
import { promptRef, templateRef } from './completion-ref.js';
import { MCP_COMPLETION_METADATA } from './completion.constants.js';
import { CompleterRegistry } from './completer.registry.js';
import type { McpCompletionOptions } from './mcp-completion.decorator.js';

/**
 * Finds `@McpCompletion` methods once every prompt and resource template is registered (after all `onModuleInit`),
 * checks what each names, and registers it; when the app has any, the server advertises `completions`.
 */
@Injectable()
export class CompletionExplorer implements OnApplicationBootstrap {
  constructor(
    private readonly providers: ProviderScanner,
    private readonly completers: CompleterRegistry,
    private readonly prompts: PromptRegistry,
    private readonly resources: ResourceRegistry,
    private readonly reflector: Reflector,
    private readonly features: McpFeatures,
  ) {}

  onApplicationBootstrap(): void {
    const read = (m: Function) => this.reflector.get<McpCompletionOptions | undefined>(MCP_COMPLETION_METADATA, m);
    for (const found of this.providers.scan({ read, decorator: '@McpCompletion', plural: 'completers' }))
      this.register(found);
    if (this.completers.size > 0) this.features.offer({ capability: 'completions' });
  }

  private register(found: ScannedMethod<McpCompletionOptions>): void {
    const { instance, methodName, token, requestScoped, cls, meta: options } = found;
    const fail = (why: string) => new Error(`McpTasksModule: @McpCompletion on ${cls.name}.${methodName}: ${why}`);
    if (typeof options.argument !== 'string' || options.argument === '') throw fail('it needs an argument');
    if ((options.prompt === undefined) === (options.resourceTemplate === undefined))
      throw fail('it names either a prompt or a resourceTemplate');
    const ref =
      options.prompt !== undefined
        ? promptRef(this.prompts, options.prompt)
        : templateRef(this.resources, { name: options.resourceTemplate! });
    if (!ref) {
      const missing = options.prompt !== undefined ? `@McpPrompt named "${options.prompt}"` : '';
      throw fail(`there is no ${missing || `@McpResourceTemplate named "${options.resourceTemplate}"`}`);
    }
    if (!ref.arguments.includes(options.argument))
      throw fail(`${ref.label} has no argument "${options.argument}" (it has: ${ref.arguments.join(', ') || 'none'})`);
    this.completers.add(ref.key, { options, instance, token, requestScoped, methodName });
  }
}
