import type { Provider } from '@nestjs/common';
import { McpPromptNotifier } from './mcp-prompt.notifier.js';
import { PromptExplorer } from './prompt.explorer.js';
import { PromptRegistry } from './prompt.registry.js';

/** Finding the app's `@McpPrompt` methods (`prompts/get` is a handler of the method tables). */
export const promptsProviders: Provider[] = [PromptRegistry, PromptExplorer, McpPromptNotifier];
