import {
  ConflictException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  NotImplementedException,
} from '@nestjs/common';
import { isTerminal } from '../protocol/wire.interface.js';
import { hasTaskQueries, TASK_QUERY_METHODS, type TaskQueries } from '../store/capabilities/task-queries.interface.js';
import { isPlausibleTaskId } from '../tasks/task-id.js';
import { MCP_CONSOLE_OPTIONS, type ResolvedConsoleOptions } from './console-options.js';
import { encodeCursor, parseListQuery } from './console-query.parser.js';
import { ConsoleTarget } from './console-target.js';
import { describeOwner, detailView, summaryView } from './console.view.js';

const MINUTE = 60_000;
/** The chart's window: this many whole minutes, the current one included. */
const WINDOW_MINUTES = 60;
/** Rows in each ranking (owners, lease holders). */
const TOP = 10;
/** Per-minute data changes slowly: the page re-reads it this often (or every pollInterval, if longer). */
const ACTIVITY_INTERVAL = 10_000;

/** What the console's data routes answer: reads of the shared store, and cancels through the task runner. */
@Injectable()
export class ConsoleService {
  private readonly logger = new Logger('McpTasksConsole');

  constructor(
    @Inject(MCP_CONSOLE_OPTIONS) private readonly options: ResolvedConsoleOptions,
    private readonly target: ConsoleTarget,
  ) {}

  async overview() {
    const { options, runner } = this.target.registration;
    const now = Date.now();
    const counts = await this.queries().taskCounts({ top: TOP }, now);
    return {
      server: { name: options.server.name, version: options.server.version },
      instance: runner.instanceId,
      now,
      pollInterval: this.options.pollInterval,
      activityInterval: Math.max(this.options.pollInterval, ACTIVITY_INTERVAL),
      showResults: this.options.showResults,
      limits: { maxPerPrincipal: nullIfInfinite(options.maxPerPrincipal), maxTasks: nullIfInfinite(options.maxTasks) },
      stats: {
        ...counts,
        byOwner: counts.byOwner.map((o) => ({ ...o, owner: describeOwner(o.owner) })),
        busiestOwners: counts.busiestOwners.map((o) => ({ ...o, owner: describeOwner(o.owner) })),
      },
    };
  }

  /** The last hour, minute by minute: created and ended, and run times per tool. */
  async activity() {
    const now = Date.now();
    const since = Math.floor(now / MINUTE) * MINUTE - (WINDOW_MINUTES - 1) * MINUTE;
    return { now, ...(await this.queries().taskActivity({ since, bucketMs: MINUTE }, now)) };
  }

  async list(raw: Record<string, unknown>) {
    const now = Date.now();
    const query = parseListQuery(raw, now);
    const page = await this.queries().listTasks(query, now);
    return {
      now,
      total: page.total,
      tasks: page.tasks.map(summaryView),
      next: page.next ? encodeCursor(page.next) : null,
    };
  }

  async detail(id: string) {
    const { runner } = this.target.registration;
    const now = Date.now();
    return { now, task: detailView(await this.find(id, now), this.options.showResults, runner.instanceId, now) };
  }

  /** The same path as `tasks/cancel`: the runner marks the task cancelled and the bus tells its instance. */
  async cancel(id: string, actor: string) {
    const { runner, store } = this.target.registration;
    const task = await this.find(id, Date.now());
    const who = describeOwner(task.owner).subject;
    if (isTerminal(task.status)) {
      this.logger.log(`${actor} asked to cancel task ${id} (${task.tool}, owner ${who}): already ${task.status}`);
      throw new ConflictException(`The task already ended: ${task.status}`);
    }
    await runner.cancel(id);
    const status = (await store.get(id, Date.now()))?.status ?? 'cancelled';
    this.logger.log(`${actor} cancelled task ${id} (${task.tool}, owner ${who}, was ${task.status}): now ${status}`);
    return { id, status };
  }

  private async find(id: string, now: number) {
    const task = isPlausibleTaskId(id) ? await this.target.registration.store.get(id, now) : undefined;
    if (!task) throw new NotFoundException('Task not found');
    return task;
  }

  /** The store's listing and aggregates (`TaskQueries`), or a 501 that says which are missing. */
  private queries(): TaskQueries {
    const { store } = this.target.registration;
    if (hasTaskQueries(store)) return store;
    const missing = TASK_QUERY_METHODS.filter((m) => typeof (store as Partial<TaskQueries>)[m] !== 'function');
    throw new NotImplementedException(
      `This task store (${store.constructor.name}) does not implement ${missing.join(', ')}, which the console ` +
        'needs to list and count tasks. MemoryTaskStore and TypeOrmTaskStore have them; add them to a custom ' +
        'store (see TaskQueries). Single tasks can still be opened and cancelled by id.',
    );
  }
}

const nullIfInfinite = (n: number): number | null => (Number.isFinite(n) ? n : null);
