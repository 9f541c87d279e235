import type { Provider } from '@nestjs/common';
import { CompleterRegistry } from './completer.registry.js';
import { CompletionExplorer } from './completion.explorer.js';

/** Finding the app's `@McpCompletion` methods (`completion/complete` is a handler of the method tables). */
export const completionsProviders: Provider[] = [CompleterRegistry, CompletionExplorer];
