import type { ServerResponse } from 'node:http';
import { LEGACY_PROTOCOL_VERSION } from '../mcp-tasks.constants.js';
import { SSE_HEADERS, sseMessage } from '../protocol/sse.js';
import { isTerminal } from '../protocol/wire.interface.js';
import { sessionTopic, followTopic } from '../events/task-event.topics.js';
import { hasTaskListing } from '../store/capabilities/task-listing.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import type { InputSink } from './input-delivery.js';
import { toLegacyTask } from './legacy-task.view.js';
import type { StreamContext } from './stream-context.js';

/** Tasks a stream picks up when it opens (their newest, waiting ones). */
const CATCH_UP = 100;
/** Tasks a stream remembers what it last read and sent of (the oldest forgotten first). */
const REMEMBERED = 4 * CATCH_UP;

/**
 * A session's GET stream: `notifications/tasks/status` for the session's tasks (unless a `tasks/result` stream on
 * this instance follows the task), and the input requests of the session's tasks that no `tasks/result` stream
 * takes — after a grace of two poll intervals, so a `tasks/result` the client is about to send gets them first.
 * Clients that follow a task with `tasks/get` alone (and `tasks/result` once it ended) get their questions here.
 * It lists the session's tasks when it opens, and again each time its follow of the session takes effect (at first,
 * and after each re-join of the bus): a task changed since this stream last read it (its event was not relayed
 * here) is read as an event would have it read. Reading a task twice sends nothing twice: a status notification goes
 * out when the status differs from the last one sent, a question once (`InputDelivery`).
 */
export class LegacySessionStream implements InputSink {
  readonly sent = new Set<string>();
  readonly claimed = new Set<string>();
  /** Tasks waiting for input, with when this stream learned of it. */
  private readonly waiting = new Map<string, number>();
  /** The status last sent of each task (kept once final: a second read of it sends nothing). */
  private readonly statuses = new Map<string, string>();
  /** What this stream last read of each task (`stamp`), from a listing or an event. */
  private readonly known = new Map<string, string>();
  private retrying = false;
  private ended = false;
  private readonly stops: (() => void)[] = [];
  /** The first listing, done (`catchUp`). */
  private caughtUp?: Promise<TaskRecord[]>;

  constructor(
    private readonly ctx: StreamContext,
    readonly id: string,
    readonly session: string,
    private readonly owner: string,
    private readonly res: ServerResponse,
    /** Whether a `tasks/result` stream on this instance follows the task (it then sends its notifications). */
    private readonly followed: (taskId: string) => boolean,
  ) {}

  open(onEnd: () => void): void {
    this.stops.push(onEnd);
    this.stops.push(
      this.ctx.bus.subscribe((e) => {
        if (e.type === 'status-changed' && e.session === this.session) void this.seen(e.taskId);
      }),
    );
    this.stops.push(followTopic(this.ctx.bus, sessionTopic(this.session), () => void this.followActive()));
    this.res.writeHead(200, SSE_HEADERS);
    this.res.flushHeaders();
    const poll = setInterval(() => void this.retry(), this.ctx.pollInterval);
    const keepAlive = setInterval(() => this.res.write(': keep-alive\n\n'), this.ctx.keepAliveMs);
    this.stops.push(() => (clearInterval(poll), clearInterval(keepAlive)));
    this.res.once('close', () => void this.close());
    this.caughtUp = this.catchUp();
  }

  write(message: Record<string, unknown>): void {
    if (!this.ended && !this.res.writableEnded && !this.res.destroyed) this.res.write(sseMessage(message));
  }

  async end(): Promise<void> {
    if (!this.res.writableEnded) this.res.end();
    await this.close();
  }

  private async seen(taskId: string): Promise<void> {
    const task = await this.ctx.store.get(taskId, Date.now()).catch(() => undefined);
    if (!task || this.ended) {
      this.forget(taskId);
      return;
    }
    remember(this.known, taskId, stamp(task));
    const view = toLegacyTask(task, this.ctx.pollInterval);
    // A task is created working, and its creation is no status change: the client has it from the call's reply.
    if ((this.statuses.get(taskId) ?? 'working') !== view.status) {
      remember(this.statuses, taskId, view.status);
      if (!this.followed(taskId)) this.write({ method: 'notifications/tasks/status', params: view });
    }
    if (isTerminal(task.status)) this.waiting.delete(taskId);
    else if (this.deliverable(task)) this.waiting.set(taskId, this.waiting.get(taskId) ?? Date.now());
    else this.waiting.delete(taskId);
  }

  /** Tasks waiting past the grace: take their channel if it is free, and send their requests. */
  private async retry(): Promise<void> {
    if (this.retrying || this.ended) return;
    this.retrying = true;
    try {
      const due = Date.now() - 2 * this.ctx.pollInterval;
      for (const [id, since] of this.waiting) {
        if (since > due) continue;
        const task = await this.ctx.store.get(id, Date.now());
        if (!task || !this.deliverable(task)) this.waiting.delete(id);
        else await this.ctx.delivery.deliver(task, this);
      }
    } catch {
      // The store is unreachable: the next poll tries again.
    } finally {
      this.retrying = false;
    }
  }

  /** Tasks of this session already waiting when the stream opens (a client that reconnected). */
  private async catchUp(): Promise<TaskRecord[]> {
    const tasks = await this.list();
    for (const task of tasks) {
      remember(this.known, task.id, stamp(task));
      if (this.deliverable(task)) this.waiting.set(task.id, Date.now());
    }
    return tasks;
  }

  /** The follow of the session took effect (again): the tasks changed since this stream last read them are read. */
  private async followActive(): Promise<void> {
    await this.caughtUp;
    for (const task of await this.list()) if (this.known.get(task.id) !== stamp(task)) void this.seen(task.id);
  }

  /** The session's newest tasks (none where the store cannot list them). */
  private async list(): Promise<TaskRecord[]> {
    const { store } = this.ctx;
    if (!hasTaskListing(store) || this.ended) return [];
    const query = { owner: this.owner, session: this.session, limit: CATCH_UP };
    const tasks = await store.listByOwner(query, Date.now()).catch(() => [] as TaskRecord[]);
    return tasks.filter((task) => task.session === this.session);
  }

  private deliverable(task: TaskRecord): boolean {
    return task.status === 'input_required' && task.generation === LEGACY_PROTOCOL_VERSION;
  }

  /** A task gone from the store. */
  private forget(taskId: string): void {
    this.waiting.delete(taskId);
    this.statuses.delete(taskId);
    this.known.delete(taskId);
  }

  private async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    for (const stop of this.stops.splice(0)) stop();
    await this.ctx.delivery.release(this);
  }
}

/** What tells two reads of a task apart: two changes may share a millisecond, not a status and its questions. */
const stamp = (t: TaskRecord): string => `${t.updatedAt}|${t.status}|${Object.keys(t.inputRequests).join(',')}`;

/** Sets `key` as the newest entry of `map`, forgetting the oldest past `REMEMBERED`. */
function remember(map: Map<string, string>, key: string, value: string): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value as string);
}
