import type { TaskRecord } from '../task.record.js';

/**
 * A task as a Redis hash: one field per record property, each value JSON (so a script compares and writes values
 * Node encoded, and never decodes JSON itself), plus `_v`, the version every write bumps (the compare-and-set's).
 * An absent property has no field.
 */
export type TaskHash = Record<string, string>;

/** The version field. */
export const VERSION_FIELD = '_v';

export function encodeTask(task: TaskRecord): string[] {
  const pairs: string[] = [];
  for (const [k, v] of Object.entries(task)) if (v !== undefined) pairs.push(k, JSON.stringify(v));
  return pairs;
}

/** The record a hash holds, or `undefined` for an empty one (no such key); its version beside it. */
export function decodeTask(hash: TaskHash): { task: TaskRecord; version: string } | undefined {
  const task: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(hash)) if (!k.startsWith('_')) task[k] = JSON.parse(v);
  if (task.id === undefined) return undefined;
  return { task: task as unknown as TaskRecord, version: hash[VERSION_FIELD] ?? '0' };
}

/** A flat `[field, value, …]` reply (a script's HGETALL) as a hash. */
export function pairsToHash(flat: string[]): TaskHash {
  const hash: TaskHash = {};
  for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i]] = flat[i + 1];
  return hash;
}

/** What turns `prev` into `next`: the fields to set (as `[field, value, …]`) and the fields to delete. */
export function diffTask(prev: TaskRecord, next: TaskRecord): { set: string[]; del: string[] } {
  const set: string[] = [];
  const del: string[] = [];
  const before = prev as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(after)) {
    if (v === undefined) continue;
    const json = JSON.stringify(v);
    if (before[k] === undefined || JSON.stringify(before[k]) !== json) set.push(k, json);
  }
  for (const [k, v] of Object.entries(before)) if (v !== undefined && after[k] === undefined) del.push(k);
  return { set, del };
}
