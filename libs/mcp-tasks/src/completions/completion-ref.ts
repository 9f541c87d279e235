import type { McpCall } from '../common/mcp-call.interface.js';
import type { HandlerTarget } from '../pipeline/handler.invoker.js';
import type { PromptRegistry } from '../prompts/prompt.registry.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { ResourceRegistry } from '../resources/resource.registry.js';
import type { CompletionContext } from './completion-context.js';

/** What a completion's `ref` names: a prompt or a resource template, and how its completers are kept. */
export interface CompletionRef {
  /** `prompt <name>` or `template <name>`: where its completers are registered. */
  key: string;
  /** Its name (the run context's `tool`). */
  name: string;
  /** Its method: its guards decide who may complete its arguments. */
  target: HandlerTarget;
  /** What its `McpCall` names (`prompt`, or `resource` with the template as URI). */
  call: Partial<McpCall>;
  /** Its arguments (a prompt's DTO properties) or URI variables. */
  arguments: string[];
  /** How errors name it. */
  label: string;
}

export const promptRef = (prompts: PromptRegistry, name: string): CompletionRef | undefined => {
  const prompt = prompts.get(name);
  if (!prompt) return undefined;
  return {
    key: `prompt ${name}`,
    name,
    target: prompt,
    call: { prompt: name },
    arguments: prompt.arguments.map((a) => a.name),
    label: `Prompt ${name}`,
  };
};

/** A template by its `name` (`@McpCompletion`) or its URI template (`ref/resource`'s `uri`). */
export const templateRef = (
  resources: ResourceRegistry,
  by: { name: string } | { uriTemplate: string },
): CompletionRef | undefined => {
  const template = resources
    .resourceTemplates()
    .find((t) => ('name' in by ? t.name === by.name : t.options.uriTemplate === by.uriTemplate));
  if (!template) return undefined;
  return {
    key: `template ${template.name}`,
    name: template.name,
    target: template.target,
    call: { resource: { uri: template.options.uriTemplate, name: template.name } },
    arguments: template.matcher.variableNames,
    label: `Resource template ${template.options.uriTemplate}`,
  };
};

/** What a request's `ref` names, or `-32602`. */
export function completionRef(
  ref: CompletionContext['ref'],
  prompts: PromptRegistry,
  resources: ResourceRegistry,
): CompletionRef {
  if (ref.type === 'ref/prompt') {
    const found = promptRef(prompts, ref.name);
    if (!found) throw RpcError.invalidParams(`Unknown prompt: ${ref.name}`);
    return found;
  }
  const found = templateRef(resources, { uriTemplate: ref.uri });
  if (!found) throw RpcError.invalidParams(`Unknown resource template: ${ref.uri}`);
  return found;
}
