import type { ServerResponse } from 'node:http';
import { followTopic } from '../events/task-event.topics.js';
import { RpcError } from '../protocol/rpc.error.js';
import { SSE_HEADERS, sseMessage } from '../protocol/sse.js';
import { isTerminal, type TaskStatus } from '../protocol/wire.interface.js';
import { legacyOutcome, toLegacyTask } from './legacy-task.view.js';
import type { StreamContext } from './stream-context.js';
import type { InputSink } from './input-delivery.js';

type Answer = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

/**
 * A blocking `tasks/result` (the task was not terminal when asked): an SSE stream that carries
 * `notifications/tasks/status` as the task's status changes, the task's input requests while it holds their
 * channel, and ends with the answer once the task is terminal. It follows the task on the bus (a change on any
 * instance), re-reads it once that follow took effect (`recheck`: a change published before was not relayed here)
 * and every `pollInterval` regardless, so a lost event only delays it.
 */
export class LegacyResultStream implements InputSink {
  readonly sent = new Set<string>();
  readonly claimed = new Set<string>();
  private lastStatus?: string;
  private running?: Promise<void>;
  private again = false;
  private ended = false;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly ctx: StreamContext,
    readonly id: string,
    readonly taskId: string,
    private readonly requestId: string | number,
    private readonly res: ServerResponse,
  ) {}

  /**
   * Starts the stream; `onEnd` runs once when it ends, however it ends; `onActive` once its follow of the task is in
   * effect (`TaskEventBus.follow`).
   */
  open(onEnd: () => void, onActive?: () => void): void {
    this.stops.push(onEnd);
    this.stops.push(
      this.ctx.bus.subscribe((e) => {
        if (e.taskId === this.taskId && e.type !== 'cancel-requested') this.pump();
      }),
    );
    this.stops.push(followTopic(this.ctx.bus, this.taskId, onActive));
    this.res.writeHead(200, SSE_HEADERS);
    this.res.flushHeaders();
    const poll = setInterval(() => this.pump(), this.ctx.pollInterval);
    const keepAlive = setInterval(() => this.res.write(': keep-alive\n\n'), this.ctx.keepAliveMs);
    this.stops.push(() => (clearInterval(poll), clearInterval(keepAlive)));
    this.res.once('close', () => void this.close());
    this.pump();
  }

  /** Re-reads the task, at most one read at a time (changes meanwhile make one more). */
  pump(): void {
    if (this.ended) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // A store error keeps the stream: the next event or poll tries again.
    this.running = this.step()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.pump();
        }
      });
  }

  /** The task's status re-read (`undefined`: gone): read in full when it moved, or asks (its questions may have). */
  recheck(status: TaskStatus | undefined): void {
    if (status === undefined || status !== this.lastStatus || status === 'input_required') this.pump();
  }

  write(message: Record<string, unknown>): void {
    if (!this.ended && !this.res.writableEnded && !this.res.destroyed) this.res.write(sseMessage(message));
  }

  /** Ends the stream: with the answer, or (`notifications/cancelled`, shutdown) without one. */
  async end(answer?: Answer): Promise<void> {
    if (answer) this.write({ id: this.requestId, ...answer });
    if (!this.res.writableEnded) this.res.end();
    await this.close();
  }

  /** Shutdown: a last read (the task may just have ended), then an error telling the client to ask again. */
  async shutdown(): Promise<void> {
    this.pump();
    await this.running;
    const message = 'The server is shutting down; call tasks/result again';
    if (!this.ended) await this.end({ error: new RpcError(-32603, message).toJSON() });
  }

  private async step(): Promise<void> {
    const task = await this.ctx.store.get(this.taskId, Date.now());
    if (this.ended) return;
    // Expired (or swept) while waiting: what tasks/get would answer now.
    if (!task) return this.end({ error: RpcError.taskNotFound().toJSON() });
    const view = toLegacyTask(task, this.ctx.pollInterval);
    if (view.status !== this.lastStatus) {
      this.lastStatus = view.status;
      this.write({ method: 'notifications/tasks/status', params: view });
    }
    if (isTerminal(task.status)) return this.end(legacyOutcome(task));
    await this.ctx.delivery.deliver(task, this);
  }

  private async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    for (const stop of this.stops.splice(0)) stop();
    await this.ctx.delivery.release(this);
  }
}
