import type { McpRequest } from '../dispatcher/mcp-request.interface.js';
import type { TaskCallVariant } from '../dispatcher/task-call.variant.js';

/** What the gateway needs of the `tools/call` it forwards. */
export type ProxiedCall = Pick<
  McpRequest,
  | 'id'
  | 'params'
  | 'protocolVersion'
  | 'clientCapabilities'
  | 'clientInfo'
  | 'principal'
  | 'signal'
  | 'inputResponses'
  | 'http'
  | 'variant'
  | 'questions'
>;

/** What the call of a 2025-era caller is: its variant, and whether it runs as a task. */
export type Era = { variant: TaskCallVariant; task: boolean } | undefined;
