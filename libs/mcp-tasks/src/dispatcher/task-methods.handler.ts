import { Inject, Injectable } from '@nestjs/common';
import { InjectTaskStore } from '../decorators/inject.decorators.js';
import { isValidInputResponse } from '../input/input-response.validator.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { RpcError } from '../protocol/rpc-error.js';
import type { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { isBoundElsewhere } from '../tasks/task-binding.js';
import { isPlausibleTaskId } from '../tasks/task-id.js';
import { toDetailedWireTask } from '../tasks/task.mapper.js';
import { TaskRunner } from '../tasks/task.runner.js';
import type { McpRequest } from './mcp-request.interface.js';

const ACK = { resultType: 'complete' } as const;

type Answer = Record<string, unknown>;

/**
 * `tasks/get`, `tasks/update`, `tasks/cancel`: the hot path, served without the SDK. Each handler runs behind
 * the task guards; for anyone but the owner a task is answered exactly like one that does not exist.
 */
@Injectable()
export class TaskMethodsHandler {
  private readonly handlers: ReadonlyMap<string, TaskHandler<Promise<Answer>>>;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    private readonly runner: TaskRunner,
    guards: TaskGuards,
  ) {
    this.handlers = new Map([
      ['tasks/get', guards.protect(this, 'get', (task) => this.get(task))],
      ['tasks/update', guards.protect(this, 'update', (task, _, answers: Answer) => this.update(task, answers))],
      ['tasks/cancel', guards.protect(this, 'cancel', (task) => this.cancel(task))],
    ]);
  }

  async handle(req: McpRequest): Promise<Answer> {
    const handler = this.handlers.get(req.method);
    if (!handler) throw RpcError.methodNotFound(req.method);
    const answers = req.method === 'tasks/update' ? inputResponsesOf(req.params) : undefined;
    return handler(await this.lookup(req.params.taskId, req.session), req.principal, answers);
  }

  private get(task: TaskRecord): Answer {
    return { resultType: 'complete', ...toDetailedWireTask(task, this.options.pollInterval) };
  }

  private async update(task: TaskRecord, answers: Answer): Promise<Answer> {
    for (const [key, answer] of Object.entries(answers)) {
      const request = Object.hasOwn(task.inputRequests, key) ? task.inputRequests[key] : undefined;
      if (request && !isValidInputResponse(request, answer)) {
        throw RpcError.invalidParams(`inputResponses.${key} is not a valid ${request.method} result`);
      }
    }
    await this.runner.answer(task.id, answers);
    return ACK;
  }

  private async cancel(task: TaskRecord): Promise<Answer> {
    await this.runner.cancel(task.id);
    return ACK;
  }

  /**
   * The task, or the one answer for a task that is not there or bound to another session (the guards then decide
   * who may see it). The 2025-11-25 methods look tasks up here too.
   */
  async lookup(id: unknown, session?: string): Promise<TaskRecord> {
    if (typeof id !== 'string' || id.length === 0) throw RpcError.invalidParams('taskId must be a non-empty string');
    // No store can hold such an id (PostgreSQL even refuses NUL): answer as for any unknown task.
    if (!isPlausibleTaskId(id)) throw RpcError.taskNotFound();
    const task = await this.store.get(id, Date.now());
    if (!task || isBoundElsewhere(task, session, !!this.options.auth)) throw RpcError.taskNotFound();
    return task;
  }
}

function inputResponsesOf(params: Record<string, unknown>): Answer {
  const responses = params.inputResponses;
  if (!responses || typeof responses !== 'object' || Array.isArray(responses)) {
    throw RpcError.invalidParams('tasks/update needs inputResponses (an object keyed by input key)');
  }
  return responses as Answer;
}
