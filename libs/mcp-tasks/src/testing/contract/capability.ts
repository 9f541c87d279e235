import type { TaskStore } from '../../store/task-store.interface.js';

/** A capability's part of the contract: its guard, its name, and the option that leaves the part out. */
export interface CapabilityPart<C> {
  has(store: TaskStore): store is TaskStore & C;
  /** The interface and its members, as the failure names them. */
  name: string;
  /** The `taskStoreContract` option that skips the part. */
  skip: string;
}

/** `store` with the capability, or an error naming it and how to leave its part out. */
export function withCapability<C>(store: TaskStore, part: CapabilityPart<C>): TaskStore & C {
  if (!part.has(store))
    throw new Error(`taskStoreContract: the store does not implement ${part.name}; without it, pass ${part.skip}`);
  return store;
}
