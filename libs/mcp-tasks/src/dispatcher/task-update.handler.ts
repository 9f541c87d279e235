import { Injectable } from '@nestjs/common';
import { UpstreamTaskRelay } from '../gateway/upstream-task.relay.js';
import { isValidInputResponse } from '../input/input-response.validator.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { TaskRecord } from '../store/task.record.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { McpTracing } from '../telemetry/tracing.js';
import type { McpAnswerHandler } from './method-handler.interface.js';
import type { McpRequest } from './mcp-request.interface.js';
import { relayOriginOf } from './relay-origin.js';
import { TaskLookup } from './task.lookup.js';

type Answer = Record<string, unknown>;

/**
 * `tasks/update`: the client's answers to a task's input requests, behind the task guards (for anyone but the owner
 * the task does not exist). An answer of the wrong shape to an outstanding request is refused; answers to requests
 * no longer outstanding are taken and change nothing.
 */
@Injectable()
export class TaskUpdateHandler implements McpAnswerHandler {
  private readonly update: TaskHandler<Promise<Answer>>;

  constructor(
    private readonly tasks: TaskLookup,
    private readonly runner: TaskRunner,
    private readonly relay: UpstreamTaskRelay,
    private readonly tracing: McpTracing,
    guards: TaskGuards,
  ) {
    this.update = guards.protect(this, 'update', (task, _, answers: Answer, req: McpRequest) =>
      this.answer(task, answers, req),
    );
  }

  async handle(req: McpRequest): Promise<Answer> {
    // The request's shape before the task: a malformed update says so whether or not the task exists.
    const answers = inputResponsesOf(req.params);
    return this.update(await this.tasks.lookup(req.params.taskId, req.session), req.principal, answers, req);
  }

  private async answer(task: TaskRecord, answers: Answer, req: McpRequest): Promise<Answer> {
    const outstanding: Answer = {};
    for (const [key, answer] of Object.entries(answers)) {
      const request = Object.hasOwn(task.inputRequests, key) ? task.inputRequests[key] : undefined;
      if (request && !isValidInputResponse(request, answer)) {
        throw RpcError.invalidParams(`inputResponses.${key} is not a valid ${request.method} result`);
      }
      if (request) outstanding[key] = answer;
    }
    // A mirrored task's question is the upstream's: the answer goes there first, and counts here once it got there.
    if (task.upstream) await this.relay.answer(task.upstream, outstanding, relayOriginOf(this.tracing, req));
    await this.runner.answer(task.id, answers);
    return { resultType: 'complete' };
  }
}

function inputResponsesOf(params: Record<string, unknown>): Answer {
  const responses = params.inputResponses;
  if (!responses || typeof responses !== 'object' || Array.isArray(responses)) {
    throw RpcError.invalidParams('tasks/update needs inputResponses (an object keyed by input key)');
  }
  return responses as Answer;
}
