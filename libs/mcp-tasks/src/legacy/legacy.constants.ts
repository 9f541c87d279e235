// The 2025-era wire's own constants (the revision itself, `LEGACY_PROTOCOL_VERSION`, is shared with `sdk/`).

/** What a client assumes of a server that names no version (2025-11-25 transports: "assume 2025-03-26"). */
export const LEGACY_DEFAULT_VERSION = '2025-03-26';

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
