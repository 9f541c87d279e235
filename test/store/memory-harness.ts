import { isLive, MemoryTaskStore, type TaskRecord } from '@mcp-tasks/nestjs';
import type { StoreHarness } from '@mcp-tasks/nestjs/testing';

/** The Map behind a MemoryTaskStore: the "database" to count in, independently of its live index. */
const rows = (store: MemoryTaskStore) => [...(store as unknown as { tasks: Map<string, TaskRecord> }).tasks.values()];

export async function memoryHarness(): Promise<StoreHarness> {
  // A memory store cannot be shared, so the "peer" is the same instance: concurrency within one node.
  const h: StoreHarness & { store: MemoryTaskStore } = {
    store: new MemoryTaskStore(),
    peer: undefined as unknown as MemoryTaskStore,
    countLive: async (owner, now) => rows(h.store).filter((t) => t.owner === owner && isLive(t, now)).length,
    countAll: async () => rows(h.store).length,
    reset: async () => {
      h.store = new MemoryTaskStore();
      h.peer = h.store;
    },
    close: async () => undefined,
  };
  await h.reset();
  return h;
}
