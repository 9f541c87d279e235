import { Inject, Injectable } from '@nestjs/common';
import { InjectTaskStore } from '../decorators/inject.decorators.js';
import { traceCarrier } from '../gateway/trace-carrier.js';
import { UpstreamTaskRelay, type RelayOrigin } from '../gateway/upstream-task.relay.js';
import { isValidInputResponse } from '../input/input-response.validator.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { RpcError } from '../protocol/rpc-error.js';
import { isTerminal } from '../protocol/wire.types.js';
import type { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { isBoundElsewhere } from '../tasks/task-binding.js';
import { isPlausibleTaskId } from '../tasks/task-id.js';
import { toDetailedWireTask } from '../tasks/task.mapper.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { McpTracing } from '../telemetry/tracing.js';
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
    private readonly relay: UpstreamTaskRelay,
    private readonly tracing: McpTracing,
  ) {
    this.handlers = new Map([
      ['tasks/get', guards.protect(this, 'get', (task) => this.get(task))],
      [
        'tasks/update',
        guards.protect(this, 'update', (task, _, answers: Answer, req: McpRequest) => this.update(task, answers, req)),
      ],
      ['tasks/cancel', guards.protect(this, 'cancel', (task, _, req: McpRequest) => this.cancel(task, req))],
    ]);
  }

  async handle(req: McpRequest): Promise<Answer> {
    const handler = this.handlers.get(req.method);
    if (!handler) throw RpcError.methodNotFound(req.method);
    const answers = req.method === 'tasks/update' ? inputResponsesOf(req.params) : undefined;
    const task = await this.lookup(req.params.taskId, req.session);
    if (answers) return handler(task, req.principal, answers, req);
    return handler(task, req.principal, req);
  }

  private get(task: TaskRecord): Answer {
    return { resultType: 'complete', ...toDetailedWireTask(task, this.options.pollInterval) };
  }

  private async update(task: TaskRecord, answers: Answer, req: McpRequest): Promise<Answer> {
    const outstanding: Answer = {};
    for (const [key, answer] of Object.entries(answers)) {
      const request = Object.hasOwn(task.inputRequests, key) ? task.inputRequests[key] : undefined;
      if (request && !isValidInputResponse(request, answer)) {
        throw RpcError.invalidParams(`inputResponses.${key} is not a valid ${request.method} result`);
      }
      if (request) outstanding[key] = answer;
    }
    // A mirrored task's question is the upstream's: the answer goes there first, and counts here once it got there.
    if (task.upstream) await this.relay.answer(task.upstream, outstanding, this.relayOrigin(req));
    await this.runner.answer(task.id, answers);
    return ACK;
  }

  private async cancel(task: TaskRecord, req: McpRequest): Promise<Answer> {
    await this.runner.cancel(task.id);
    // Straight from here, so it reaches the upstream even while no instance holds the mirror.
    if (task.upstream && !isTerminal(task.status)) await this.relay.cancel(task.upstream, this.relayOrigin(req));
    return ACK;
  }

  private relayOrigin(req: McpRequest): RelayOrigin {
    return { principal: req.principal, meta: traceCarrier(this.tracing, req.params, req.traceContext) };
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
