/** The protocol revision this library speaks natively (the "modern", session-less wire). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Identifier of the Tasks extension (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

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

/** Methods of the Tasks extension this library serves itself. */
export const TASK_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;

/** Methods of the 2025 task draft that the 2026-07-28 extension removed. */
export const REMOVED_TASK_METHODS = ['tasks/result', 'tasks/list'] as const;
