import type { Type } from '@nestjs/common';
import { CompletionCompleteHandler } from '../completions/completion-complete.handler.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { PromptGetHandler } from '../prompts/prompt-get.handler.js';
import { namesFeatures, namesTasks } from '../subscriptions/listen-claims.js';
import { TaskListenHandler } from '../subscriptions/task-listen.handler.js';
import type { McpAnswerHandler, McpStreamHandler } from './method-handler.interface.js';
import { TaskCancelHandler } from './task-cancel.handler.js';
import { TaskGetHandler } from './task-get.handler.js';
import { TaskUpdateHandler } from './task-update.handler.js';
import { ToolCallHandler } from './tool-call.handler.js';
import { ResourceReadHandler } from '../resources/resource-read.handler.js';

/** How the library answers one 2026-07-28 method itself, in front of the SDK. */
interface MethodRoute {
  /** The param whose value the `Mcp-Name` header must repeat (SEP-2243, the Tasks extension); none: no such header. */
  readonly nameParam?: string;
  /**
   * `tasks`: the method exists only with the `tasks` option on (else `-32601`), and only for a request that declares
   * the Tasks extension (else `-32021`).
   */
  readonly gate?: 'tasks';
  /**
   * Which of the method's requests are the library's (the SDK answers the others); all when absent. The fast path
   * takes only methods without it: it decides from the headers alone.
   */
  readonly claims?: (params: Record<string, any>, options: ResolvedOptions) => boolean;
  /** A light span named after the method around the handler, with `telemetry` on (a `tools/call` opens its own). */
  readonly span?: true;
  /** The request's `signal` aborts when the client goes away (only a tool run in the request needs to hear it). */
  readonly abortOnClose?: true;
  /**
   * The handler runs the app-wide guards and interceptors itself (in the decorated method's pipeline, or before it
   * refuses an unknown name), so the endpoint does not run them around the request.
   */
  readonly enhanced?: true;
}

/** An entry: its route, and the provider that answers it with a result (`answers`) or a stream (`streams`). */
export type McpMethod = MethodRoute &
  ({ readonly answers: Type<McpAnswerHandler> } | { readonly streams: Type<McpStreamHandler> });

/**
 * Every method the library answers itself on the 2026-07-28 wire: the fast path, the endpoint, the header check and
 * the dispatcher all read this table, and its handlers are the module's providers. A new method is an entry here
 * and its handler.
 */
export const MCP_METHODS: ReadonlyMap<string, McpMethod> = new Map<string, McpMethod>([
  ['tools/call', { nameParam: 'name', abortOnClose: true, enhanced: true, answers: ToolCallHandler }],
  ['resources/read', { nameParam: 'uri', enhanced: true, answers: ResourceReadHandler }],
  ['prompts/get', { nameParam: 'name', span: true, enhanced: true, answers: PromptGetHandler }],
  ['completion/complete', { span: true, enhanced: true, answers: CompletionCompleteHandler }],
  ['tasks/get', { nameParam: 'taskId', gate: 'tasks', span: true, answers: TaskGetHandler }],
  ['tasks/update', { nameParam: 'taskId', gate: 'tasks', span: true, answers: TaskUpdateHandler }],
  ['tasks/cancel', { nameParam: 'taskId', gate: 'tasks', span: true, answers: TaskCancelHandler }],
  // Listening that names tasks, resource or prompt changes (tools/list changes are the SDK's); the handler checks
  // the Tasks declaration and hands the rest to FeatureListenHandler.
  ['subscriptions/listen', { claims: namesOurs, streams: TaskListenHandler }],
]);

/** The handler of an entry. */
export const handlerOf = (method: McpMethod): Type<McpAnswerHandler | McpStreamHandler> =>
  'answers' in method ? method.answers : method.streams;

/** The handlers of the table, each once (the module provides them). */
export const METHOD_HANDLERS: Type[] = [...new Set([...MCP_METHODS.values()].map(handlerOf))];

/** The entry for a request the library answers itself, if it is one: the method is in the table and claims it. */
export function ownedMethod(
  method: string,
  params: Record<string, any>,
  options: ResolvedOptions,
): McpMethod | undefined {
  const entry = MCP_METHODS.get(method);
  return entry && (!entry.claims || entry.claims(params, options)) ? entry : undefined;
}

function namesOurs(params: Record<string, any>, options: ResolvedOptions): boolean {
  return namesTasks(params, options) || namesFeatures(params);
}
