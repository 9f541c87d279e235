import { BadRequestException } from '@nestjs/common';
import type { TaskStatus } from '../protocol/wire.interface.js';
import type { TaskCursor, TaskListQuery } from '../store/task-queries.interface.js';

const STATUSES: readonly TaskStatus[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];
const MAX_PAGE = 200;
const MAX_TEXT = 1_000;

const bad = (message: string): never => {
  throw new BadRequestException(message);
};

/** A cursor as the page carries it: opaque base64url of `[createdAt, id]`. */
export const encodeCursor = (c: TaskCursor): string =>
  Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');

function decodeCursor(text: string): TaskCursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (Number.isSafeInteger(createdAt) && typeof id === 'string') return { createdAt: createdAt as number, id };
  } catch {
    // falls through to the 400 below
  }
  return bad('cursor is not one this console handed out');
}

/**
 * `GET <path>/api/tasks` query → store query. Filters: `status` (comma-separated), `tool`, `owner`
 * (an owner key), `subject`, `maxAge` / `minAge` (ms since creation), `limit` (1–200, default 50),
 * `cursor`. A malformed value is a 400 naming it.
 */
export function parseListQuery(raw: Record<string, unknown>, now: number): TaskListQuery {
  const text = (name: string): string | undefined => {
    const v = raw[name];
    if (v === undefined || v === '') return undefined;
    if (typeof v !== 'string') return bad(`${name} must be given once, as text`);
    if (v.length > MAX_TEXT) return bad(`${name} is longer than ${MAX_TEXT} characters`);
    return v;
  };
  const int = (name: string, min: number, max: number): number | undefined => {
    const v = text(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    return /^\d+$/.test(v) && n >= min && n <= max ? n : bad(`${name} must be an integer from ${min} to ${max}`);
  };
  const query: TaskListQuery = { limit: int('limit', 1, MAX_PAGE) ?? 50 };
  const status = text('status');
  if (status !== undefined) {
    const list = status.split(',');
    const unknown = list.find((s) => !STATUSES.includes(s as TaskStatus));
    if (unknown !== undefined) bad(`status "${unknown}" is not one of ${STATUSES.join(', ')}`);
    query.status = [...new Set(list)] as TaskStatus[];
  }
  for (const name of ['tool', 'owner', 'subject'] as const) {
    const v = text(name);
    if (v !== undefined) query[name] = v;
  }
  const maxAge = int('maxAge', 0, Number.MAX_SAFE_INTEGER);
  const minAge = int('minAge', 0, Number.MAX_SAFE_INTEGER);
  if (maxAge !== undefined) query.createdFrom = now - maxAge;
  if (minAge !== undefined) query.createdBefore = now - minAge;
  const cursor = text('cursor');
  if (cursor !== undefined) query.after = decodeCursor(cursor);
  return query;
}
