import type { TaskPolicy } from '../decorators/mcp-tool.decorator.js';
import { TASK_SUPPORT_META } from '../sdk/sdk.constants.js';

const POLICIES: Readonly<Record<string, TaskPolicy>> = {
  forbidden: 'sync',
  optional: 'optional',
  required: 'required',
};

/**
 * How an upstream tool may run as a task, from its 2026-07-28 listing: the policy an mcp-tasks upstream lists under
 * `_meta` (that revision's `tools/list` has no field for it). Anything else — another server, a value we do not
 * know — is `sync`: a 2025-11-25 caller is then not offered a task the upstream may not make.
 */
export function upstreamTaskPolicy(tool: Record<string, unknown>): TaskPolicy {
  const meta = tool._meta as Record<string, unknown> | undefined;
  const listed = meta && typeof meta === 'object' ? meta[TASK_SUPPORT_META] : undefined;
  return (typeof listed === 'string' && Object.hasOwn(POLICIES, listed) && POLICIES[listed]) || 'sync';
}
