import type { Type } from '@nestjs/common';
import type { LegacyMethodHandler } from './legacy-method-handler.interface.js';
import { LegacyForwardHandler } from './legacy-forward.handler.js';
import { LegacyResourceSubscribeHandler } from './legacy-resource-subscribe.handler.js';
import { LegacyInitializeHandler } from './legacy-initialize.handler.js';
import { LegacySetLevelHandler } from './legacy-set-level.handler.js';
import { LegacyTaskCancelHandler } from './legacy-task-cancel.handler.js';
import { LegacyTaskGetHandler } from './legacy-task-get.handler.js';
import { LegacyTaskListHandler } from './legacy-task-list.handler.js';
import { LegacyTaskResultHandler } from './legacy-task-result.handler.js';
import { LegacyToolCallHandler } from './legacy-tool-call.handler.js';

/** How the legacy wire answers one 2025-era method itself, in front of the SDK's stateless fallback. */
export interface LegacyMethod {
  /**
   * `tasks`: the method is this wire's only with the `tasks` option on and at 2025-11-25 (the revision that has
   * tasks); otherwise the SDK answers it. (That revision has no `Mcp-Name` header and declares no capability per
   * request: the session's `capabilities.tasks` is advertised by `initialize`.)
   */
  readonly gate?: 'tasks';
  /** It settles the version itself (`initialize`): its `MCP-Protocol-Version` header is not read. */
  readonly settlesVersion?: true;
  /** A light span named after the method around the handler, with `telemetry` on (a `tools/call` opens its own). */
  readonly span?: true;
  /** The provider that answers it. */
  readonly handler: Type<LegacyMethodHandler>;
}

/**
 * Every 2025-era method the legacy wire answers itself (the rest, lists, `ping` and the like, are the SDK's): the
 * router reads this table, and its handlers are the module's providers. A new method is an entry here and its
 * handler. Posted answers and notifications are not methods of this table: the router takes them apart.
 */
export const LEGACY_METHODS: ReadonlyMap<string, LegacyMethod> = new Map<string, LegacyMethod>([
  ['initialize', { settlesVersion: true, handler: LegacyInitializeHandler }],
  ['tools/call', { handler: LegacyToolCallHandler }],
  ['resources/read', { handler: LegacyForwardHandler }],
  ['resources/subscribe', { handler: LegacyResourceSubscribeHandler }],
  ['resources/unsubscribe', { handler: LegacyResourceSubscribeHandler }],
  ['logging/setLevel', { handler: LegacySetLevelHandler }],
  // Served by the 2026-07-28 table's handlers (which open their spans).
  ['prompts/get', { handler: LegacyForwardHandler }],
  ['completion/complete', { handler: LegacyForwardHandler }],
  ['tasks/get', { gate: 'tasks', span: true, handler: LegacyTaskGetHandler }],
  ['tasks/cancel', { gate: 'tasks', span: true, handler: LegacyTaskCancelHandler }],
  ['tasks/result', { gate: 'tasks', span: true, handler: LegacyTaskResultHandler }],
  ['tasks/list', { gate: 'tasks', span: true, handler: LegacyTaskListHandler }],
]);

/** The handlers of the table, each once (the module provides them). */
export const LEGACY_METHOD_HANDLERS: Type[] = [...new Set([...LEGACY_METHODS.values()].map((m) => m.handler))];
