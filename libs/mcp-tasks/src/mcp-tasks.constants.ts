// The injection tokens, metadata keys and wire constants that more than one folder uses. A folder's own live in its
// `<folder>.constants.ts` (e.g. `legacy/legacy.constants.ts`).
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';

// ---- Injection tokens ----------------------------------------------------------------------------

/**
 * Injection token of the module's options with every default applied (`ResolvedOptions`).
 * @publicApi
 */
export const MCP_TASKS_OPTIONS = Symbol('MCP_TASKS_OPTIONS');

/** Injection token of the `TaskStore` (exported as `TaskStore`, the interface's name; or use `@InjectTaskStore()`). */
export const TASK_STORE = Symbol('TaskStore');

/** Injection token of the `TaskEventBus` (exported as `TaskEventBus`; or use `@InjectTaskEventBus()`). */
export const TASK_EVENT_BUS = Symbol('TaskEventBus');

// ---- Metadata keys -------------------------------------------------------------------------------

/** Where `@McpTool` keeps a method's tool options. */
export const MCP_TOOL_METADATA = 'mcp-tasks:tool';

/**
 * `ExecutionContext#getType()` of an MCP request (app-wide enhancers, a tool's): arguments `[req, res, McpCall]`.
 * @publicApi
 */
export const MCP_CONTEXT_TYPE = 'mcp';

/**
 * `ExecutionContext#getType()` the ownership guard sees for an access to a task: its arguments `[task, principal]`.
 * @publicApi
 */
export const MCP_TASK_CONTEXT_TYPE = 'mcp-task';

// ---- The wire ------------------------------------------------------------------------------------

/**
 * The protocol revision this library speaks natively (the "modern", session-less wire).
 */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The 2025-era revision whose tasks (`capabilities.tasks`, `params.task`, `tasks/result`) the library serves too. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/**
 * Identifier of the Tasks extension (SEP-2663), `io.modelcontextprotocol/tasks`: ext-tasks' `TASKS_EXTENSION_ID_V2`,
 * the same value the client declares.
 * @publicApi
 */
export const TASKS_EXTENSION = TASKS_EXTENSION_ID_V2;

/** The capabilities that declare the Tasks extension (what a server advertises and a request must carry). */
export const TASKS_REQUIRED: { extensions: Record<string, Record<string, never>> } = {
  extensions: { [TASKS_EXTENSION]: {} },
};

/**
 * Keys of the per-request `_meta` envelope.
 */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;

/**
 * JSON-RPC error codes used on the wire.
 * @publicApi
 */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingCapability: -32021,
  UnsupportedVersion: -32022,
} as const;
