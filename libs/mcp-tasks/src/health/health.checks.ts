import type { TaskEventBus } from '../events/task-event-bus.interface.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { hasTaskQueries } from '../store/capabilities/task-queries.interface.js';
import type { TaskStore } from '../store/task-store.interface.js';
import type { TaskSweeper } from '../tasks/task.sweeper.js';

/**
 * What the health indicator reports: `healthy`, and each fact it checked.
 * @publicApi
 */
export interface McpTasksHealth {
  healthy: boolean;
  details: {
    server: string;
    /** `up`, or `down: <error>` when a read fails. */
    store: string;
    /** `in-process`, `connected` or `disconnected` (what a bus's `health()` says, e.g. PostgreSQL's). */
    bus: string;
    /** `running`, `stalled` (no reclaim for two periods, or its last one failed) or `stopped`. */
    sweeper: string;
    /** Live tasks, when the store can count them (`TaskQueries`), and the server's cap. */
    liveTasks?: number;
    maxTasks: number | 'Infinity';
  };
}

/** The facts, read now; `healthy` when the store answers, the bus is not disconnected, the sweeper runs, under cap. */
export async function healthOf(
  options: ResolvedOptions,
  store: TaskStore,
  bus: TaskEventBus,
  sweeper: TaskSweeper,
  now: number,
): Promise<McpTasksHealth> {
  let storeState = 'up';
  let live: number | undefined;
  try {
    await store.get('health-probe', now);
    live = hasTaskQueries(store) ? (await store.taskCounts({ top: 0 }, now)).live : undefined;
  } catch (err) {
    storeState = `down: ${(err as Error).message}`;
  }
  const link = bus.health?.();
  const busState = !link ? 'in-process' : link.connected ? 'connected' : 'disconnected';
  const last = sweeper.lastReclaim;
  const late = last ? now - last.at > 2 * sweeper.reclaimInterval + 1_000 || !last.ok : false;
  const sweeperState = !sweeper.running ? 'stopped' : late ? 'stalled' : 'running';
  const atCap = live !== undefined && live >= options.maxTasks;
  return {
    healthy: storeState === 'up' && busState !== 'disconnected' && sweeperState === 'running' && !atCap,
    details: {
      server: options.server.name,
      store: storeState,
      bus: busState,
      sweeper: sweeperState,
      ...(live === undefined ? {} : { liveTasks: live }),
      maxTasks: Number.isFinite(options.maxTasks) ? options.maxTasks : 'Infinity',
    },
  };
}
