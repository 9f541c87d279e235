import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import { TaskLookup } from '../dispatcher/task.lookup.js';
import { UpstreamTaskRelay } from '../gateway/upstream-task.relay.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { RpcError } from '../protocol/rpc.error.js';
import { isTerminal } from '../protocol/wire.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { TaskRunner } from '../tasks/task.runner.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';
import { toLegacyTask, type LegacyTask } from './legacy-task.view.js';

/**
 * 2025-11-25 `tasks/cancel`: the task, cancelled, as that revision shapes it; a task that already ended is `-32602`,
 * as that revision has it. Lookup and guards are those of 2026-07-28.
 */
@Injectable()
export class LegacyTaskCancelHandler implements LegacyMethodHandler {
  private readonly cancel: TaskHandler<Promise<LegacyTask>>;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly tasks: TaskLookup,
    private readonly runner: TaskRunner,
    private readonly relay: UpstreamTaskRelay,
    guards: TaskGuards,
  ) {
    this.cancel = guards.protect(this, 'cancel', (task, principal) => this.cancelled(task, principal));
  }

  async serve(req: LegacyRequest, x: LegacyExchange): Promise<void> {
    const task = await this.tasks.lookup(req.params.taskId, req.session?.id);
    x.reply(req.id).result({ ...(await this.cancel(task, req.principal)) });
  }

  /** Final before the answer (the bus stops the run wherever it is). */
  private async cancelled(task: TaskRecord, principal: Principal): Promise<LegacyTask> {
    const terminal = (t: TaskRecord) =>
      RpcError.invalidParams(`Cannot cancel task: already in terminal status '${toLegacyTask(t, 0).status}'`);
    if (isTerminal(task.status)) throw terminal(task);
    const outcome = await this.runner.cancel(task.id);
    if (!outcome) throw RpcError.taskNotFound();
    if (outcome.task.status !== 'cancelled') throw terminal(outcome.task);
    // A mirrored task: straight upstream from here too, as on 2026-07-28, even while no instance holds the mirror.
    if (task.upstream) await this.relay.cancel(task.upstream, { principal });
    return toLegacyTask(outcome.task, this.options.pollInterval);
  }
}
