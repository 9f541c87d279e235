/**
 * `_meta` key of a tool's task policy in a 2026-07-28 `tools/list` (`forbidden`, `optional`, `required`). The Tasks
 * extension defines no such field, so the key is this library's own, not under the reserved `io.modelcontextprotocol/`.
 */
export const TASK_SUPPORT_META = 'mcp-tasks/taskSupport';
