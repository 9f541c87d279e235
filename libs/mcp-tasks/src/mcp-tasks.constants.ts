// Every injection token, metadata key and wire constant of the library, in one place.
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';

// ---- Injection tokens ----------------------------------------------------------------------------

/** Injection token of the module's options with every default applied (`ResolvedOptions`). */
export const MCP_TASKS_OPTIONS = Symbol('MCP_TASKS_OPTIONS');

/** Injection token of the `TaskStore` (exported as `TaskStore`, the interface's name; or use `@InjectTaskStore()`). */
export const TASK_STORE = Symbol('TaskStore');

/** Injection token of the `TaskEventBus` (exported as `TaskEventBus`; or use `@InjectTaskEventBus()`). */
export const TASK_EVENT_BUS = Symbol('TaskEventBus');

// ---- Metadata keys -------------------------------------------------------------------------------

/** Where `@McpTool` keeps a method's tool options. */
export const MCP_TOOL_METADATA = 'mcp-tasks:tool';

/** Where `@RequiredScopes` keeps the scopes of a tool method or class. */
export const REQUIRED_SCOPES_METADATA = 'mcp-tasks:required-scopes';

/** `ExecutionContext#getType()` of an MCP request (app-wide enhancers, a tool's): arguments `[req, res, McpCall]`. */
export const MCP_CONTEXT_TYPE = 'mcp';

/** `ExecutionContext#getType()` the ownership guard sees for an access to a task: its arguments `[task, principal]`. */
export const MCP_TASK_CONTEXT_TYPE = 'mcp-task';

/** The subject of every request when there is neither `auth` nor a subject resolver. */
export const HOST_SUBJECT = 'host';

// ---- The wire ------------------------------------------------------------------------------------

/** The protocol revision this library speaks natively (the "modern", session-less wire). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The 2025-era revision whose tasks (`capabilities.tasks`, `params.task`, `tasks/result`) the library serves too. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** What a client assumes of a server that names no version (2025-11-25 transports: "assume 2025-03-26"). */
export const LEGACY_DEFAULT_VERSION = '2025-03-26';

/**
 * Identifier of the Tasks extension (SEP-2663), `io.modelcontextprotocol/tasks`: ext-tasks' `TASKS_EXTENSION_ID_V2`,
 * the same value the client declares.
 */
export const TASKS_EXTENSION = TASKS_EXTENSION_ID_V2;
/**
 * `_meta` key of a tool's task policy in a 2026-07-28 `tools/list` (`forbidden`, `optional`, `required`). The Tasks
 * extension defines no such field, so the key is this library's own, not under the reserved `io.modelcontextprotocol/`.
 */
export const TASK_SUPPORT_META = 'mcp-tasks/taskSupport';

/** The capabilities that declare the Tasks extension (what a server advertises and a request must carry). */
export const TASKS_REQUIRED: { extensions: Record<string, Record<string, never>> } = {
  extensions: { [TASKS_EXTENSION]: {} },
};

/** Keys of the per-request `_meta` envelope. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** JSON-RPC error codes used on the wire. */
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

/** The `_meta` key that ties a 2025-11-25 message to its task. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** The 2025-11-25 server capability for tasks: listing, cancelling, task-augmented `tools/call`. */
export const LEGACY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } } as const;

/** The header that carries a 2025-era session. */
export const SESSION_HEADER = 'mcp-session-id';

/** The id prefix of the requests a 2025-11-25 task sends its client (`elicitation/create`, …). */
export const INPUT_REQUEST_ID_PREFIX = 'mcp-tasks/in:';

/** 2025-11-25 `tasks/list` page size. */
export const LEGACY_LIST_PAGE = 50;

/** The shortest ttl a 2025-11-25 client may ask for, in ms (a task that expires at once is of no use). */
export const LEGACY_MIN_TTL = 1_000;

/** At most this many task ids per `subscriptions/listen` request (the extension's limit). */
export const MAX_LISTEN_TASKS = 100;
