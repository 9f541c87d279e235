import type { TaskStore } from '../store/task-store.interface.js';

/**
 * One backing store as the contract suite sees it.
 * @publicApi
 */
export interface StoreHarness {
  /** The store under test. */
  store: TaskStore;
  /** Another instance over the same data, as a second node would hold (the same object for memory). */
  peer: TaskStore;
  /** `owner`'s live tasks counted in the backing data directly, bypassing the store's own logic. */
  countLive(owner: string, now: number): Promise<number>;
  /** Every stored task, expired or not. */
  countAll(): Promise<number>;
  /** Empties the store; runs before each test. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a fresh `StoreHarness`: what `taskStoreContract` is given.
 * @publicApi
 */
export type HarnessFactory = () => Promise<StoreHarness>;
