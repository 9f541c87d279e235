import { Inject, Injectable } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { TaskOwnershipGuard } from '../guards/task-ownership.guard.js';
import { MCP_CONTEXT_TYPE, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import { isValidInputResponse } from '../input/input-response.validator.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc-error.js';
import { TaskStore } from '../store/task-store.interface.js';
import { isPlausibleTaskId } from '../tasks/task-id.js';
import type { TaskRecord } from '../store/task.record.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { detailedWireTask } from '../tasks/task.view.js';
import type { RequestInfo } from './request-info.js';
import { InjectTaskStore } from '../decorators/inject.decorators.js';

const ACK = { resultType: 'complete' } as const;

/**
 * `tasks/get`, `tasks/update`, `tasks/cancel`: the hot path, served without the SDK. Every lookup
 * is owner-checked; a foreign task is answered exactly like one that does not exist.
 */
@Injectable()
export class TaskMethodsHandler {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    private readonly runner: TaskRunner,
    private readonly ownership: TaskOwnershipGuard,
  ) {}

  async get(req: RequestInfo): Promise<Record<string, unknown>> {
    const task = await this.lookup(req);
    return { resultType: 'complete', ...detailedWireTask(task, this.options.pollInterval) };
  }

  async update(req: RequestInfo): Promise<Record<string, unknown>> {
    const responses = req.params.inputResponses;
    if (!responses || typeof responses !== 'object' || Array.isArray(responses)) {
      throw RpcError.invalidParams('tasks/update needs inputResponses (an object keyed by input key)');
    }
    const task = await this.lookup(req);
    for (const [key, answer] of Object.entries(responses)) {
      const request = Object.hasOwn(task.inputRequests, key) ? task.inputRequests[key] : undefined;
      if (request && !isValidInputResponse(request, answer)) {
        throw RpcError.invalidParams(`inputResponses.${key} is not a valid ${request.method} result`);
      }
    }
    await this.runner.answer(task.id, responses as Record<string, unknown>);
    return ACK;
  }

  async cancel(req: RequestInfo): Promise<Record<string, unknown>> {
    const task = await this.lookup(req);
    await this.runner.cancel(task.id);
    return ACK;
  }

  /** The task, if it exists and the ownership guard lets this caller at it; else "not found" (or 403 for scopes). */
  private async lookup(req: RequestInfo): Promise<TaskRecord> {
    const id = req.params.taskId;
    if (typeof id !== 'string' || id.length === 0) throw RpcError.invalidParams('taskId must be a non-empty string');
    // No store can hold such an id (PostgreSQL even refuses NUL): answer as for any unknown task.
    if (!isPlausibleTaskId(id)) throw RpcError.taskNotFound();
    const task = await this.store.get(id, Date.now());
    if (!task) throw RpcError.taskNotFound();
    const ec = new ExecutionContextHost([task, req.principal]);
    ec.setType(MCP_CONTEXT_TYPE);
    if (!this.ownership.canActivate(ec)) throw RpcError.taskNotFound();
    return task;
  }
}
