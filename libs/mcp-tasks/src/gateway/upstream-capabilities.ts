import { TASKS_REQUIRED } from '../mcp-tasks.constants.js';

/**
 * What a 2025-era caller's session declared, as the 2026-07-28 call upstream declares it: what the client can be
 * asked (`elicitation`, `sampling`, `roots`) — without that era's `tasks`, and with the Tasks extension only when
 * the caller asked for a task (`params.task`), so the upstream runs any other call in the request.
 */
export function upstreamCapabilitiesOf(session: Record<string, any>, task: boolean): Record<string, unknown> {
  const { tasks: _, extensions: __, ...asks } = session ?? {};
  return task ? { ...asks, ...TASKS_REQUIRED } : asks;
}
