import { Injectable } from '@nestjs/common';
import type { PromptDefinition } from './prompt-definition.js';

const whereIs = (p: PromptDefinition): string => `${p.instance.constructor.name}.${p.methodName}`;

/** Every `@McpPrompt` of the app by name, in discovery order (stable across calls and restarts). */
@Injectable()
export class PromptRegistry {
  private readonly prompts = new Map<string, PromptDefinition>();

  add(prompt: PromptDefinition): void {
    const prior = this.prompts.get(prompt.name);
    if (prior)
      throw new Error(
        `McpTasksModule: duplicate prompt name "${prompt.name}" (${whereIs(prior)} and ${whereIs(prompt)})`,
      );
    this.prompts.set(prompt.name, prompt);
  }

  get(name: string): PromptDefinition | undefined {
    return this.prompts.get(name);
  }

  list(): PromptDefinition[] {
    return [...this.prompts.values()];
  }
}
