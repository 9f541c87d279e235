import { Injectable } from '@nestjs/common';
import { UpstreamTaskRelay } from '../gateway/upstream-task.relay.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { isTerminal } from '../protocol/wire.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { McpTracing } from '../telemetry/tracing.js';
import type { McpAnswerHandler } from './method-handler.interface.js';
import type { McpRequest } from './mcp-request.interface.js';
import { relayOriginOf } from './relay-origin.js';
import { TaskLookup } from './task.lookup.js';

type Answer = Record<string, unknown>;

/**
 * `tasks/cancel`: acknowledged once the task is cancelled (a task that already ended stays as it is), behind the task
 * guards: for anyone but the owner the task does not exist.
 */
@Injectable()
export class TaskCancelHandler implements McpAnswerHandler {
  private readonly cancel: TaskHandler<Promise<Answer>>;

  constructor(
    private readonly tasks: TaskLookup,
    private readonly runner: TaskRunner,
    private readonly relay: UpstreamTaskRelay,
    private readonly tracing: McpTracing,
    guards: TaskGuards,
  ) {
    this.cancel = guards.protect(this, 'cancel', (task, _, req: McpRequest) => this.cancelled(task, req));
  }

  async handle(req: McpRequest): Promise<Answer> {
    return this.cancel(await this.tasks.lookup(req.params.taskId, req.session), req.principal, req);
  }

  private async cancelled(task: TaskRecord, req: McpRequest): Promise<Answer> {
    await this.runner.cancel(task.id);
    // Straight from here, so it reaches the upstream even while no instance holds the mirror.
    if (task.upstream && !isTerminal(task.status)) {
      await this.relay.cancel(task.upstream, relayOriginOf(this.tracing, req));
    }
    return { resultType: 'complete' };
  }
}
