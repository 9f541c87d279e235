import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { insufficientScope } from '../auth/auth-challenge.error.js';
import type { Principal } from '../common/principal.interface.js';
import { McpExecutionContext } from '../context/mcp-execution-context.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { sameOwner } from '../owner/owner-key.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { TaskRecord } from '../store/task.record.js';

/**
 * The guard in front of `tasks/get|update|cancel` and listening (after the app's global guards): only the
 * task's owner may touch it — anyone else gets exactly the answer for an unknown task — and only while their
 * token still has the scopes the tool required. It sees an `ExecutionContext` of type `mcp-task` with the
 * arguments `[task, principal]`. Subclass it and override the hooks to change the rules (`guards.ownership`).
 * @publicApi
 */
@Injectable()
export class TaskOwnershipGuard implements CanActivate {
  constructor(@Inject(MCP_TASKS_OPTIONS) protected readonly options: ResolvedOptions) {}

  canActivate(ec: ExecutionContext): boolean {
    const task = McpExecutionContext.task(ec);
    const principal = McpExecutionContext.principal(ec);
    if (!this.isOwner(task, principal)) throw RpcError.taskNotFound();
    if (this.options.auth && !this.hasScopes(task, principal))
      throw insufficientScope(principal.resource ?? this.options.auth.resource!, task.requiredScopes);
    return true;
  }

  /** Same owner: subject, server, OAuth client and resource all match (whichever form of the key is stored). */
  protected isOwner(task: TaskRecord, principal: Principal): boolean {
    return sameOwner(task.owner, principal.key);
  }

  /** The caller still holds every scope the task's tool required. */
  protected hasScopes(task: TaskRecord, principal: Principal): boolean {
    return task.requiredScopes.every((s) => principal.scopes.includes(s));
  }
}
