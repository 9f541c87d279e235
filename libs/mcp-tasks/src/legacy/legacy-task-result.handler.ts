import { Injectable } from '@nestjs/common';
import { TaskLookup } from '../dispatcher/task.lookup.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { RpcError } from '../protocol/rpc.error.js';
import { isTerminal } from '../protocol/wire.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';
import { LegacyStreams } from './legacy-streams.js';
import { legacyOutcome } from './legacy-task.view.js';
import { RequestCancels } from './request-cancels.js';

/**
 * 2025-11-25 `tasks/result`: a task's outcome, at once when it ended, else once it does on a stream that blocks
 * until then (the client's `notifications/cancelled` ends it). Lookup and guards are those of 2026-07-28.
 */
@Injectable()
export class LegacyTaskResultHandler implements LegacyMethodHandler {
  private readonly follow: TaskHandler<Promise<TaskRecord>>;

  constructor(
    private readonly tasks: TaskLookup,
    private readonly streams: LegacyStreams,
    private readonly cancels: RequestCancels,
    guards: TaskGuards,
  ) {
    this.follow = guards.protect(this, 'result', (task) => task);
  }

  async serve(req: LegacyRequest, x: LegacyExchange): Promise<void> {
    const task = await this.tasks.lookup(req.params.taskId, req.session?.id);
    const followed = await this.follow(task, req.principal);
    if (isTerminal(followed.status)) {
      const outcome = legacyOutcome(followed);
      const reply = x.reply(req.id);
      return 'result' in outcome ? reply.result(outcome.result) : reply.error(rpcErrorOf(outcome.error));
    }
    const stream = this.streams.openResult(task.id, req.id, req.principal.key, x.res);
    const forget = this.cancels.register(req.principal, req.session?.id, req.id, () => void stream.end());
    x.res.once('close', forget);
  }
}

const rpcErrorOf = (e: { code: number; message: string; data?: unknown }): RpcError =>
  new RpcError(e.code, e.message, e.data);
