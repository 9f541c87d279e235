import type { TaskStatus } from '../protocol/wire.interface.js';

/** Shared arithmetic of `taskStats`, so every store buckets and ranks exactly alike. */

/** Buckets from `since` up to and including the one holding `now`. */
export const bucketCount = (since: number, bucketMs: number, now: number): number =>
  now < since ? 0 : Math.floor((now - since) / bucketMs) + 1;

/** 1-based nearest-rank position of the median among `n` sorted values: ⌈n/2⌉. */
export const p50Rank = (n: number): number => Math.floor((n + 1) / 2);

/** 1-based nearest-rank position of the 95th percentile among `n` sorted values: ⌈0.95·n⌉. */
export const p95Rank = (n: number): number => Math.floor((95 * n + 99) / 100);

export const emptyStatusCounts = (): Record<TaskStatus, number> => ({
  working: 0,
  input_required: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
});

/** Most first, then by name: the order of every ranking. */
export const byCountThenName =
  <T>(count: (x: T) => number, name: (x: T) => string) =>
  (a: T, b: T): number =>
    count(b) - count(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
