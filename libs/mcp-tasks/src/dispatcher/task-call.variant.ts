import type { TaskPolicy } from '../decorators/mcp-tool.decorator.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import type { RpcError } from '../protocol/rpc.error.js';
import type { TaskRecord } from '../store/task.record.js';
import type { TaskOrigin } from '../tasks/task-record.factory.js';

/**
 * What a `tools/call` of another wire (2025-11-25, set by `legacy/`) changes: when it runs as a task, what the task
 * records, the shape of its handle. Such a wire has no MRTR, so input asked in the request is refused, a tool's
 * `prepare` runs inside its task, and a call that asked for a task never falls back to running in the request.
 */
export interface TaskCallVariant {
  /** `task` or `sync` for this call, from the tool and the policy it resolved to for the call; may throw. */
  mode(tool: ToolDefinition, resolved: TaskPolicy): 'task' | 'sync';
  /** What the task records besides the call. */
  readonly origin: TaskOrigin;
  /** The answer once the store holds the task. */
  created(task: TaskRecord): Record<string, unknown>;
  /** The error for a run in the request that asks for input. */
  inputInRequest(tool: string): RpcError;
}
