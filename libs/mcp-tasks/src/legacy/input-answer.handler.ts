import { Injectable, Logger } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import { TaskLookup } from '../dispatcher/task.lookup.js';
import { UpstreamTaskRelay } from '../gateway/upstream-task.relay.js';
import { inputError } from '../input/input-error.mapper.js';
import { isValidInputResponse } from '../input/input-response.validator.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { TaskRecord } from '../store/task.record.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { clientErrorOf } from './client-error.js';
import { accepted, type LegacyExchange } from './legacy-exchange.js';

/**
 * A client's POSTed answer to one of a task's input requests (`{ id, result }` or `{ id, error }`), landing on any
 * instance: written to the store as the task's answer, which the bus relays to the instance running the tool.
 * An answer to a task the caller cannot see, or to a question no longer outstanding, is taken and dropped (202), so
 * it tells nobody anything; a result of the wrong shape is refused (400) and fails the question, so the tool does
 * not wait for an answer that will not come.
 */
@Injectable()
export class InputAnswerHandler {
  private readonly logger = new Logger('McpTasks');
  private readonly answer: TaskHandler<Promise<TaskRecord>>;

  constructor(
    private readonly tasks: TaskLookup,
    private readonly runner: TaskRunner,
    private readonly relay: UpstreamTaskRelay,
    guards: TaskGuards,
  ) {
    this.answer = guards.protect(this, 'update', (task) => task);
  }

  /** `target`: the task and input key the answer's id names. */
  async serve(x: LegacyExchange, target: { taskId: string; key: string }, session?: string): Promise<void> {
    const body = x.body as { id?: unknown; result?: unknown; error?: unknown };
    const task = await this.visible(target.taskId, session, x.principal);
    const request = task && Object.hasOwn(task.inputRequests, target.key) ? task.inputRequests[target.key] : undefined;
    if (!task || !request) {
      this.logger.debug(`answer to ${String(body.id)} dropped: no such question outstanding for this caller`);
      return accepted(x.res);
    }
    if (body.error !== undefined) {
      await this.runner.answer(task.id, { [target.key]: inputError(clientErrorOf(body.error)) });
      return accepted(x.res);
    }
    if (!isValidInputResponse(request, body.result)) {
      const message = `The client's answer to ${request.method} is not a valid result`;
      await this.runner.answer(task.id, { [target.key]: inputError({ code: RpcCode.InvalidParams, message }) });
      return x.reply(null).error(new RpcError(RpcCode.InvalidParams, message, undefined, 400));
    }
    // A mirrored task's question is the upstream's: the answer goes there first, and counts here once it got there.
    if (task.upstream)
      await this.relay.answer(task.upstream, { [target.key]: body.result }, { principal: x.principal });
    await this.runner.answer(task.id, { [target.key]: body.result });
    accepted(x.res);
  }

  /** The task, if this caller may answer it; a refusal other than "not found" (scopes) is the caller's to hear. */
  private async visible(
    id: string,
    session: string | undefined,
    principal: Principal,
  ): Promise<TaskRecord | undefined> {
    try {
      return await this.answer(await this.tasks.lookup(id, session), principal);
    } catch (err) {
      if (err instanceof RpcError && err.code === RpcCode.InvalidParams) return undefined;
      throw err;
    }
  }
}
