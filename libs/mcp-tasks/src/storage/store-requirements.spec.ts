import { describe, expect, it } from '@jest/globals';
import { LocalTaskEventBus } from '../events/local-task-event.bus.js';
import type { McpTasksModuleOptions } from '../options/mcp-tasks-options.interface.js';
import { resolveOptions } from '../options/resolve-options.js';
import { MemoryTaskStore } from '../store/memory/memory-task.store.js';
import type { TaskStore } from '../store/task-store.interface.js';
import { checkStoreRequirements } from './store-requirements.js';

/** A custom store with the core methods only (never called here: the check reads what the store declares). */
class CoreOnlyStore implements TaskStore {
  create = () => Promise.resolve('created' as const);
  get = () => Promise.resolve(undefined);
  update = () => Promise.resolve(undefined);
  sweep = () => Promise.resolve(0);
  renewLeases = () => Promise.resolve();
  reclaimExpiredLeases = () => Promise.resolve([]);
}
const coreOnly = (): TaskStore => new CoreOnlyStore();
/** A store shared across processes that gives the PostgreSQL connection of its database. */
const onPostgres = (): TaskStore =>
  Object.assign(coreOnly(), { sharedAcrossProcesses: true, postgresConnection: async () => 'postgres://db/x' });

const upstream = { name: 'files', url: 'http://127.0.0.1:1/mcp' };
const check = (store: TaskStore, o: Partial<McpTasksModuleOptions>) =>
  checkStoreRequirements(resolveOptions({ server: { name: 's', version: '1' }, store, ...o }), store);

describe('checkStoreRequirements: a feature the store lacks a capability for fails startup, naming both', () => {
  it('upstreams need TaskMirrors', () => {
    expect(() => check(coreOnly(), { upstreams: [upstream] })).toThrow(
      'McpTasksModule: upstreams need a store with adoptLapsedMirrors (TaskMirrors); CoreOnlyStore has none',
    );
    expect(() => check(new MemoryTaskStore(), { upstreams: [upstream] })).not.toThrow();
    expect(() => check(coreOnly(), {})).not.toThrow();
  });

  it("bus { type: 'postgres' } without a connection needs the store's PostgreSQL connection", () => {
    expect(() => check(new MemoryTaskStore(), { bus: { type: 'postgres' } })).toThrow(
      'McpTasksModule: bus { type: "postgres" } without a connection needs a store that gives its PostgreSQL ' +
        'connection (SharedTaskStore.postgresConnection, as store { type: "typeorm" } on PostgreSQL does); ' +
        'MemoryTaskStore has none',
    );
    // Shared, but saying nothing of PostgreSQL: still none to borrow.
    const sharedElsewhere = Object.assign(coreOnly(), { sharedAcrossProcesses: true });
    expect(() => check(sharedElsewhere, { bus: { type: 'postgres' } })).toThrow(/CoreOnlyStore has none$/);
    expect(() => check(onPostgres(), { bus: { type: 'postgres' } })).not.toThrow();
    expect(() => check(new MemoryTaskStore(), { bus: { type: 'postgres', connection: 'postgres://x' } })).not.toThrow();
    expect(() => check(new MemoryTaskStore(), { bus: new LocalTaskEventBus() })).not.toThrow();
  });

  it('what degrades on purpose fails nothing: a store with the core methods alone starts', () => {
    expect(() => check(coreOnly(), {})).not.toThrow();
  });
});
