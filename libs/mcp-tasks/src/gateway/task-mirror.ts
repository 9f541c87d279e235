import { Logger } from '@nestjs/common';
import { MAX_TIMER_MS } from '../common/long-timeout.js';
import { RpcCode, TASKS_REQUIRED } from '../mcp-tasks.constants.js';
import { isTerminal, type InputRequests } from '../protocol/wire.interface.js';
import type { TaskChange, TaskRecord, TaskUpstream } from '../store/task.record.js';
import type { MirrorTarget } from './mirror-target.interface.js';
import type { UpstreamListenStream, UpstreamTask } from './upstream-client.api.js';
import type { UpstreamConnection } from './upstream.connection.js';
import { errorOf, resultOf } from './upstream-task.outcome.js';
import { UpstreamAnsweredError } from './upstream-answered.error.js';
import { UpstreamUnreachableError } from './upstream-unreachable.error.js';
import { FIRST_RETRY_MS, LISTEN_POLL_FACTOR, MAX_RETRY_MS, MIN_POLL_MS } from './mirror-timing.constants.js';

/**
 * Keeps one local task in step with the upstream task it mirrors: status, `statusMessage`, the questions (same
 * keys), then the result or error. It follows the upstream with `subscriptions/listen` where the upstream serves it,
 * polling at the upstream's `pollIntervalMs` otherwise (and 5 times rarer while listening); it reads the local task on
 * every round, so a cancel from any instance is seen even if its notification is lost, and is passed on upstream.
 * An unreachable upstream is retried with backoff until little of the task's ttl is left (a tenth, at most a
 * minute), then the task ends `failed`; an upstream that no longer knows the task ends it `failed` at once.
 */
export class TaskMirror {
  private readonly logger = new Logger('McpTasks');
  private readonly stopped = new AbortController();
  private readonly upstreamTask: TaskUpstream;
  private notified?: UpstreamTask;
  private waker?: () => void;
  /** Woken while not pausing: the next pause returns at once. */
  private woken = false;
  private listening?: UpstreamListenStream;
  private listenRefused = false;
  /** The upstream's state as last seen (cancelling is pointless once it ended). */
  private upstreamEnded = false;
  private readonly giveUpAt: number;
  /** Since when the upstream has not answered (logged once per outage). */
  private unreachableSince?: number;

  constructor(
    private task: TaskRecord,
    private readonly upstream: UpstreamConnection,
    private readonly target: MirrorTarget,
    private readonly pollInterval: number,
  ) {
    this.upstreamTask = task.upstream!;
    const ttl = task.expiresAt === null ? Infinity : task.expiresAt - task.createdAt;
    this.giveUpAt = task.createdAt + ttl - Math.min(ttl / 10, 60_000);
  }

  /** Follows the upstream task until it ends, the local task ends or expires, or `stop()`; never throws. */
  async run(first?: UpstreamTask): Promise<void> {
    let snapshot = first;
    let retry = FIRST_RETRY_MS;
    try {
      while (!this.stopped.signal.aborted) {
        try {
          if (await this.localEnded()) return;
          snapshot ??= this.takeNotified() ?? (await this.poll());
          // The upstream's hint is its say, not ours to trust: a value past a timer's range would fire at once.
          const hint = snapshot.pollIntervalMs;
          const interval = Math.max(MIN_POLL_MS, Number.isFinite(hint) ? hint! : this.pollInterval);
          if (await this.follow(snapshot)) return;
          snapshot = undefined;
          retry = FIRST_RETRY_MS;
          this.unreachableSince = undefined;
          await this.listen();
          await this.pause(this.listening ? interval * LISTEN_POLL_FACTOR : interval);
        } catch (err) {
          snapshot = undefined;
          if (this.stopped.signal.aborted || (await this.ended(err))) return;
          this.closeListen();
          // Never past the moment to give up: the last try comes then, and the task still reads as failed after it.
          await this.pause(Math.min(retry, Math.max(0, this.giveUpAt - Date.now())));
          retry = Math.min(retry * 2, MAX_RETRY_MS);
        }
      }
    } finally {
      this.closeListen();
    }
  }

  /** Aborted once the mirror is stopped. */
  get signal(): AbortSignal {
    return this.stopped.signal;
  }

  /** Re-reads the local task at once (a notification says it changed). */
  wake(): void {
    this.woken = true;
    this.waker?.();
  }

  /** Stops following (shutdown: another instance takes the mirror over). */
  stop(): void {
    this.stopped.abort();
    this.waker?.();
  }

  private poll(): Promise<UpstreamTask> {
    return this.upstream.request('tasks/get', { taskId: this.upstreamTask.taskId }, this.callOptions());
  }

  /**
   * Whether the local task is gone, expired or ended — or followed by another instance now; a cancelled one is
   * cancelled upstream first.
   */
  private async localEnded(): Promise<boolean> {
    const task = await this.target.read();
    if (!task) return true;
    this.task = task;
    if (!isTerminal(task.status)) return !this.target.holds(task);
    if (task.status === 'cancelled' && !this.upstreamEnded) await this.cancelUpstream();
    return true;
  }

  /** Retries until the upstream acknowledges or the mirror would have given up anyway. */
  private async cancelUpstream(): Promise<void> {
    for (let wait = FIRST_RETRY_MS; !(await this.target.cancelUpstream()); wait = Math.min(wait * 2, MAX_RETRY_MS)) {
      if (Date.now() >= this.giveUpAt || this.stopped.signal.aborted) return;
      await this.pause(wait);
    }
  }

  /** Applies the upstream's state; says whether the mirror is done. */
  private async follow(up: UpstreamTask): Promise<boolean> {
    if (up.statusMessage !== undefined && up.statusMessage !== this.task.statusMessage) {
      if (await this.change({ kind: 'progress', statusMessage: up.statusMessage })) return true;
    }
    if (isTerminal(up.status)) {
      this.upstreamEnded = true;
      if (up.status === 'completed') return this.change({ kind: 'finish', status: 'completed', result: resultOf(up) });
      if (up.status === 'failed') return this.change({ kind: 'finish', status: 'failed', error: errorOf(up) });
      return this.change({ kind: 'finish', status: 'cancelled' });
    }
    const fresh = Object.entries(up.inputRequests ?? {}).filter(
      ([key]) => !Object.hasOwn(this.task.inputRequests, key) && !Object.hasOwn(this.task.inputResponses, key),
    );
    if (up.status === 'input_required' && fresh.length > 0)
      return this.change({ kind: 'ask', requests: Object.fromEntries(fresh) as InputRequests });
    return false;
  }

  /**
   * Applies a change; says whether the mirror is done (the task is gone or ended). A task found cancelled here (a
   * cancel landed since the last read) is cancelled upstream first, as `localEnded` would have.
   */
  private async change(change: TaskChange): Promise<boolean> {
    const outcome = await this.target.apply(change);
    if (!outcome) return true;
    this.task = outcome.task;
    if (outcome.task.status === 'cancelled' && !this.upstreamEnded) await this.cancelUpstream();
    return isTerminal(outcome.task.status);
  }

  /** Whether a failure ends the mirror (and how the task ended); `false`: retry. */
  private async ended(err: unknown): Promise<boolean> {
    try {
      if (err instanceof UpstreamAnsweredError) {
        const lost = err.code === RpcCode.InvalidParams && /not found/i.test(err.message);
        const error = lost
          ? {
              code: RpcCode.InternalError,
              message: `The upstream task was lost: "${this.upstream.name}" no longer has it`,
            }
          : { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) };
        await this.change({ kind: 'finish', status: 'failed', error });
        return true;
      }
      if (err instanceof UpstreamUnreachableError && Date.now() >= this.giveUpAt) {
        const message = `Upstream "${this.upstream.name}" stayed unreachable until the task's time ran out`;
        await this.change({ kind: 'finish', status: 'failed', error: { code: RpcCode.InternalError, message } });
        return true;
      }
      if (!(err instanceof UpstreamUnreachableError) || this.unreachableSince === undefined)
        this.logger.warn(`mirror of task ${this.task.id}: ${String(err)}; retrying`);
      if (err instanceof UpstreamUnreachableError) this.unreachableSince ??= Date.now();
    } catch (failure) {
      this.logger.warn(`mirror of task ${this.task.id}: outcome not stored yet (${String(failure)}); retrying`);
    }
    return false;
  }

  /** Opens a listen stream for the upstream task once, where the upstream serves one. */
  private async listen(): Promise<void> {
    if (this.listening || this.listenRefused) return;
    const id = this.upstreamTask.taskId;
    try {
      const stream = await this.upstream.listen([id], (task) => this.onNotified(task), this.callOptions());
      if (!stream.acknowledged.includes(id)) {
        stream.close();
        this.listenRefused = true;
        return;
      }
      this.listening = stream;
      // One more read right away: a change between the last poll and the acknowledgement is not notified.
      this.woken = true;
      void stream.closed.then(() => {
        if (this.listening === stream) this.listening = undefined;
      });
    } catch (err) {
      // A server without listening says so with a JSON-RPC error; an unreachable one is tried again later.
      if (err instanceof UpstreamAnsweredError) this.listenRefused = true;
    }
  }

  private onNotified(task: UpstreamTask): void {
    if (task.taskId !== this.upstreamTask.taskId) return;
    this.notified = task;
    this.waker?.();
  }

  private takeNotified(): UpstreamTask | undefined {
    const task = this.notified;
    this.notified = undefined;
    return task;
  }

  private closeListen(): void {
    this.listening?.close();
    this.listening = undefined;
  }

  private callOptions() {
    return { principal: this.upstreamTask.principal, capabilities: TASKS_REQUIRED, signal: this.stopped.signal };
  }

  /** Waits `ms`, or until woken (a notification, a local change) or stopped. */
  private pause(ms: number): Promise<void> {
    if (this.stopped.signal.aborted || this.notified || this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = (): void => {
        clearTimeout(timer);
        this.woken = false;
        resolve();
      };
      timer = setTimeout(done, Math.min(ms, MAX_TIMER_MS));
      this.waker = done;
    });
  }
}
