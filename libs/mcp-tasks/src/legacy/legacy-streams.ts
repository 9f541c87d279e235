import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { InjectTaskEventBus, InjectTaskStore } from '../decorators/inject.decorators.js';
import { FollowRecheck } from '../events/follow.recheck.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { MCP_TASKS_OPTIONS, RpcCode } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import { readStatuses } from '../store/read-statuses.js';
import { TaskStore } from '../store/task-store.interface.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { InputDelivery } from './input-delivery.js';
import { LegacyResultStream } from './legacy-result.stream.js';
import { LegacySessionStream } from './legacy-session.stream.js';
import type { StreamContext } from './stream-context.js';
import { badTransport } from './transport.error.js';

/**
 * This instance's open 2025-era streams: blocking `tasks/result` streams (at most `maxPerPrincipal` per owner) and
 * one GET stream per session. On shutdown they end once the tasks run here have reached their final state.
 */
@Injectable()
export class LegacyStreams implements BeforeApplicationShutdown {
  private readonly ctx: StreamContext;
  private readonly results = new Map<string, Set<LegacyResultStream>>();
  private readonly sessions = new Map<string, LegacySessionStream>();
  private readonly perOwner = new Map<string, number>();
  /** `tasks/result` streams whose follow took effect, re-read together (one read per turn). */
  private readonly rechecks: FollowRecheck<LegacyResultStream>;
  /** The streams' ending, once shutdown began. */
  closing?: Promise<void>;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() store: TaskStore,
    @InjectTaskEventBus() bus: TaskEventBus,
    delivery: InputDelivery,
    private readonly runner: TaskRunner,
  ) {
    this.ctx = { store, bus, delivery, pollInterval: options.pollInterval, keepAliveMs: 15_000 };
    this.rechecks = new FollowRecheck(
      (ids) => readStatuses(store, ids, Date.now()),
      (stream, status) => stream.recheck(status),
    );
  }

  /** Opens a blocking `tasks/result` on `res`; refused (`-32600`) past the owner's limit. */
  openResult(taskId: string, requestId: string | number, owner: string, res: ServerResponse): LegacyResultStream {
    const open = this.perOwner.get(owner) ?? 0;
    if (open >= this.options.maxPerPrincipal) {
      throw new RpcError(RpcCode.InvalidRequest, 'Too many open tasks/result streams; close one first');
    }
    const stream = new LegacyResultStream(this.ctx, this.streamId(), taskId, requestId, res);
    const set = this.results.get(taskId) ?? new Set();
    this.results.set(taskId, set.add(stream));
    this.perOwner.set(owner, open + 1);
    const onEnd = () => {
      set.delete(stream);
      if (set.size === 0 && this.results.get(taskId) === set) this.results.delete(taskId);
      const left = (this.perOwner.get(owner) ?? 1) - 1;
      if (left > 0) this.perOwner.set(owner, left);
      else this.perOwner.delete(owner);
    };
    stream.open(onEnd, () => this.rechecks.add(taskId, stream));
    return stream;
  }

  /** Opens the session's GET stream; a second one for the same session on this instance is a conflict (409). */
  openSession(session: string, owner: string, res: ServerResponse): void {
    if (this.sessions.has(session)) throw badTransport(409, 'Conflict: Only one SSE stream is allowed per session');
    const stream = new LegacySessionStream(this.ctx, this.streamId(), session, owner, res, (id) =>
      this.results.has(id),
    );
    this.sessions.set(session, stream);
    stream.open(() => this.sessions.delete(session));
  }

  /** Writes `message` on the session's GET stream, when it is open here; whether it was. */
  notifySession(session: string, message: Record<string, unknown>): boolean {
    const stream = this.sessions.get(session);
    stream?.write(message);
    return stream !== undefined;
  }

  /** Whether the session's GET stream is open on this instance. */
  hasSession(session: string): boolean {
    return this.sessions.has(session);
  }

  /** Writes `message` on every GET stream open here (a list-changed notification: every session may hear it). */
  notifyAllSessions(message: Record<string, unknown>): void {
    for (const stream of this.sessions.values()) stream.write(message);
  }

  /**
   * Once the runner has given the tasks run here their final state (its own shutdown hook; awaited in the background,
   * since Nest may call this hook first), each `tasks/result` stream reads its task a last time and ends, and the GET
   * streams end: before the HTTP server waits for its connections.
   */
  beforeApplicationShutdown(): void {
    this.closing = this.runner.stopped.then(async () => {
      const results = [...this.results.values()].flatMap((set) => [...set]);
      await Promise.all([...results.map((s) => s.shutdown()), ...[...this.sessions.values()].map((s) => s.end())]);
    });
  }

  private streamId(): string {
    return `${this.runner.instanceId}/${randomUUID()}`;
  }
}
