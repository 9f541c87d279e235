import { Inject, Injectable } from '@nestjs/common';
import { InjectTaskStore } from '../decorators/inject.decorators.js';
import { LEGACY_PROTOCOL_VERSION, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { inputRequestId } from './input-request-id.js';
import { RELATED_TASK_META } from './legacy.constants.js';

/** An open SSE stream that can carry a task's input requests to its client. */
export interface InputSink {
  /** Unique over every instance (it names the claim in the store). */
  readonly id: string;
  /** Ids of the requests it has sent. */
  readonly sent: Set<string>;
  /** Tasks whose channel it has claimed (released when it closes). */
  readonly claimed: Set<string>;
  write(message: Record<string, unknown>): void;
}

/**
 * Sends a 2025-11-25 task's outstanding input requests to its client as real JSON-RPC requests, tied to the task by
 * related-task `_meta`, on exactly one open stream: the one that holds the task's input channel, a claim in the
 * store (so across instances too), renewed while held and lapsing `lease` ms after its holder died.
 */
@Injectable()
export class InputDelivery {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
  ) {}

  /** Sends what `sink` has not sent yet of `task`'s requests, if `sink` holds (or now takes) its channel. */
  async deliver(task: TaskRecord, sink: InputSink, now = Date.now()): Promise<void> {
    if (task.status !== 'input_required' || task.generation !== LEGACY_PROTOCOL_VERSION) return;
    const channel = task.inputChannel;
    if (channel?.stream !== sink.id || channel.until - now <= this.options.lease / 3) {
      const until = now + this.options.lease;
      const out = await this.store.update(task.id, { kind: 'claim-input', stream: sink.id, until }, now);
      if (out?.task.inputChannel?.stream !== sink.id) return;
      sink.claimed.add(task.id);
      task = out.task;
    }
    for (const [key, request] of Object.entries(task.inputRequests)) {
      const id = inputRequestId(task.id, key);
      if (sink.sent.has(id)) continue;
      sink.sent.add(id);
      sink.write(requestMessage(id, task.id, request));
    }
  }

  /** Gives up `sink`'s claims (it closed): another stream takes over at once. Best effort: a claim also lapses. */
  async release(sink: InputSink): Promise<void> {
    const ids = [...sink.claimed];
    sink.claimed.clear();
    await Promise.all(
      ids.map((id) =>
        this.store.update(id, { kind: 'release-input', stream: sink.id }, Date.now()).catch(() => undefined),
      ),
    );
  }
}

function requestMessage(id: string, taskId: string, request: InputRequest): Record<string, unknown> {
  const params = request.params ?? {};
  const meta = { ...(params._meta as Record<string, unknown> | undefined), [RELATED_TASK_META]: { taskId } };
  return { id, method: request.method, params: { ...params, _meta: meta } };
}
