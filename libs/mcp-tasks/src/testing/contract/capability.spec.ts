import { describe, expect, it } from '@jest/globals';
import { hasTaskListing, type TaskListing } from '../../store/capabilities/task-listing.interface.js';
import { MemoryTaskStore } from '../../store/memory/memory-task.store.js';
import type { TaskStore } from '../../store/task-store.interface.js';
import { withCapability, type CapabilityPart } from './capability.js';

const LISTING: CapabilityPart<TaskListing> = {
  has: hasTaskListing,
  name: 'TaskListing (listByOwner)',
  skip: '{ ownerListing: false }',
};

describe("a capability's part of the contract", () => {
  it('runs on a store that has it', () => {
    const store = new MemoryTaskStore();
    expect(withCapability(store, LISTING)).toBe(store);
  });

  it('fails on a store without it, naming the capability and the option that leaves its part out', () => {
    const store = Object.assign(new MemoryTaskStore(), { listByOwner: undefined }) as unknown as TaskStore;
    expect(() => withCapability(store, LISTING)).toThrow(
      'taskStoreContract: the store does not implement TaskListing (listByOwner); without it, pass ' +
        '{ ownerListing: false }',
    );
  });
});
