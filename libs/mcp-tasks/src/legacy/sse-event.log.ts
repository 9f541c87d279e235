import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { parseSseEventId } from './sse-event-id.js';
import { SseStreamBuffer } from './sse-stream.buffer.js';
import { badTransport } from './transport.error.js';

/** Resumable streams one instance keeps; past it the oldest finished one (else the oldest) is forgotten. */
export const MAX_STREAMS = 1_000;
/** How long a finished stream stays resumable (a client that lost the answer's event comes back for it). */
export const KEEP_FINISHED_MS = 5 * 60_000;

/**
 * The resumable 2025-11-25 POST replies of this instance, in memory: a `GET` with `Last-Event-ID` resumes one only
 * on the instance that holds it (the id names it). Another instance, or this one after the stream expired or was
 * forgotten, answers 400: the client then asks again (or uses a task, whose state the store shares).
 */
@Injectable()
export class SseEventLog {
  private readonly streams = new Map<string, SseStreamBuffer>();
  /** The `retry` (ms) a priming event asks for: the pollInterval option. */
  readonly retryMs: number;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) options: ResolvedOptions,
    private readonly runner: TaskRunner,
  ) {
    this.retryMs = options.pollInterval;
  }

  /** A new stream of `session`, owned by `owner`. */
  open(session: string, owner: string): SseStreamBuffer {
    this.sweep(Date.now());
    if (this.streams.size >= MAX_STREAMS) this.forgetOne();
    const stream = new SseStreamBuffer(`${this.runner.instanceId}:${randomUUID()}`, session, owner);
    this.streams.set(stream.key, stream);
    return stream;
  }

  /** Resumes the stream `lastEventId` names on `res`; 400 when it is none this session can resume here. */
  resume(lastEventId: string, session: string, owner: string, res: ServerResponse): void {
    this.sweep(Date.now());
    const id = parseSseEventId(lastEventId);
    if (id && id.instance !== this.runner.instanceId && !this.streams.has(id.stream)) {
      throw badTransport(400, `Bad Request: Last-Event-ID ${lastEventId} names a stream of another server instance`);
    }
    const stream = id && this.streams.get(id.stream);
    // Another session's stream reads as unknown: its existence is not this client's to learn.
    if (!id || !stream || stream.session !== session || stream.owner !== owner || !stream.holds(id.seq)) {
      throw badTransport(400, `Bad Request: Last-Event-ID ${lastEventId} names no stream this session can resume`);
    }
    stream.resume(res, id.seq);
  }

  private sweep(now: number): void {
    for (const [key, stream] of this.streams) {
      if (stream.done && now - stream.doneAt > KEEP_FINISHED_MS) this.streams.delete(key);
    }
  }

  private forgetOne(): void {
    const done = [...this.streams.values()].find((s) => s.done);
    const key = done?.key ?? this.streams.keys().next().value;
    if (key !== undefined) this.streams.delete(key);
  }
}
