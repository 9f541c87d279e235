import { isTaskEventBus } from '../events/task-event-bus.interface.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { isSharedTaskStore } from '../store/capabilities/shared-task-store.interface.js';
import { hasTaskMirrors } from '../store/capabilities/task-mirrors.interface.js';
import type { TaskStore } from '../store/task-store.interface.js';

/** A feature that cannot run on a store without some capability. */
interface StoreRequirement {
  /** What the feature needs, as the startup error says it. */
  need: string;
  /** Whether the options turn the feature on. */
  wanted(options: ResolvedOptions): boolean;
  /** Whether the store has the capability. */
  has(store: TaskStore): boolean;
}

/**
 * The features that fail startup on a store without the capability they need. The other capabilities fail
 * nothing, on purpose — their features carry on without the part that needs them, as each interface says:
 * without `TaskListing`, 2025-11-25 `tasks/list` is not advertised; without `TaskQueries`, the console answers
 * 501 for its lists and counts and the health indicator leaves out `liveTasks`; the shared-store warning looks
 * only in a `SharedTaskStore` with `TaskQueries`; without `statuses`, the runner reads its tasks one `get` each.
 */
const REQUIREMENTS: StoreRequirement[] = [
  {
    need: 'upstreams need a store with adoptLapsedMirrors (TaskMirrors)',
    wanted: (o) => o.upstreams.length > 0,
    has: hasTaskMirrors,
  },
  {
    need:
      'bus { type: "postgres" } without a connection needs a store that gives its PostgreSQL connection ' +
      '(SharedTaskStore.postgresConnection, as store { type: "typeorm" } on PostgreSQL does)',
    wanted: (o) => !!o.bus && !isTaskEventBus(o.bus) && o.bus.type === 'postgres' && !o.bus.connection,
    has: (store) => isSharedTaskStore(store) && typeof store.postgresConnection === 'function',
  },
];

/** Fails startup when a feature the options turn on needs a capability `store` lacks, naming both. */
export function checkStoreRequirements(options: ResolvedOptions, store: TaskStore): void {
  for (const r of REQUIREMENTS) {
    if (r.wanted(options) && !r.has(store))
      throw new Error(`McpTasksModule: ${r.need}; ${store.constructor.name} has none`);
  }
}
