import type { EntityManager } from 'typeorm';
import { ownerKeyForms, subjectKeyPrefixes } from '../../owner/owner-key.js';
import type { OwnerTasksQuery, TaskListPage, TaskListQuery } from '../task-queries.interface.js';
import { toSummary } from '../task-summary.mapper.js';
import type { TaskRecord } from '../task.record.js';
import { McpTaskEntity } from './mcp-task.entity.js';
import type { RawRow, TaskColumns } from './task-columns.js';
import { toRecord } from './task-row.mapper.js';
import type { SqlFlavour } from './sql-flavour.js';

/**
 * `TypeOrmTaskStore`'s listings, run by the store's dialect like its other reads. The console's: one count and one
 * page query, newest first (`IDX_mcp_tasks_created`, `IDX_mcp_tasks_tool_created`); one owner's whole tasks
 * (`IDX_mcp_tasks_owner_created`).
 */

const LISTED = ['id', 'ownerKey', 'tool', 'status', 'statusMessage', 'createdAt', 'updatedAt', 'expiresAt'] as const;

export async function listTasks(m: EntityManager, q: TaskListQuery, now: number): Promise<TaskListPage> {
  const filtered = () => {
    const qb = m.createQueryBuilder(McpTaskEntity, 't').where('(t.expiresAt IS NULL OR t.expiresAt > :now)', { now });
    if (q.status) qb.andWhere('t.status IN (:...status)', { status: q.status.length ? q.status : [''] });
    if (q.tool !== undefined) qb.andWhere('t.tool = :tool', { tool: q.tool });
    if (q.owner !== undefined) qb.andWhere('t.ownerKey IN (:...owners)', { owners: ownerKeyForms(q.owner) });
    if (q.subject !== undefined) {
      // SUBSTR and the length in code points behave alike on both databases (LIKE does not: SQLite's ignores
      // ASCII case, and `_`/`%` in a subject would be patterns).
      const params: Record<string, string | number> = {};
      const starts = subjectKeyPrefixes(q.subject).map((prefix, i) => {
        Object.assign(params, { [`p${i}`]: prefix, [`n${i}`]: Array.from(prefix).length });
        return `SUBSTR(t.ownerKey, 1, :n${i}) = :p${i}`;
      });
      qb.andWhere(`(${starts.join(' OR ')})`, params);
    }
    if (q.createdFrom !== undefined) qb.andWhere('t.createdAt >= :from', { from: q.createdFrom });
    if (q.createdBefore !== undefined) qb.andWhere('t.createdAt < :before', { before: q.createdBefore });
    return qb;
  };
  const counted = await filtered().select('COUNT(*)', 'n').getRawOne<{ n: string | number }>();
  const page = filtered()
    .select([...LISTED.map((c) => `t.${c}`), 't.leaseOwner', 't.leaseExpiresAt', 't.inputRequests'])
    .orderBy('t.createdAt', 'DESC')
    .addOrderBy('t.id', 'DESC')
    .limit(q.limit + 1);
  if (q.after)
    page.andWhere('(t.createdAt < :ac OR (t.createdAt = :ac AND t.id < :aid))', {
      ac: q.after.createdAt,
      aid: q.after.id,
    });
  const rows = await page.getMany();
  const tasks = rows.slice(0, q.limit).map((row) => toSummary(toRecord(row)));
  const last = tasks.at(-1);
  const next = rows.length > q.limit && last ? { next: { createdAt: last.createdAt, id: last.id } } : {};
  return { tasks, total: Number(counted?.n ?? 0), ...next };
}

/**
 * One owner's tasks, newest first: for each form of the owner's key (`ownerKeyForms`), an ordered walk of
 * `IDX_mcp_tasks_owner_created` cut at the page size, the walks merged by the database (`UNION ALL`). One `IN` over
 * the forms instead made PostgreSQL read and sort every task of the owner, or walk the whole table by creation time.
 * Plain SQL from the entity's columns, read back as the store reads rows.
 */
export async function listByOwner(
  db: { m: EntityManager; columns: TaskColumns; flavour: SqlFlavour },
  q: OwnerTasksQuery,
  now: number,
): Promise<TaskRecord[]> {
  const { columns, flavour } = db;
  const [owner, created, id, expires, session] = columns
    .of(['ownerKey', 'createdAt', 'id', 'expiresAt', 'session'])
    .map((col) => columns.name(col));
  const params: unknown[] = [];
  // A placeholder per use, in the order of the text: SQLite's are positional.
  const p = (value: unknown) => flavour.param(params.push(value));
  const newest = () => `ORDER BY ${created} DESC, ${id} DESC LIMIT ${p(q.limit)}`;
  const where = (key: string) => {
    const all = [`${owner} = ${p(key)}`, `(${expires} IS NULL OR ${expires} > ${p(now)})`];
    if (q.session === null) all.push(`${session} IS NULL`);
    else if (q.session !== undefined) all.push(`(${session} IS NULL OR ${session} = ${p(q.session)})`);
    if (q.after) {
      const { createdAt, id: after } = q.after;
      all.push(`(${created} < ${p(createdAt)} OR (${created} = ${p(createdAt)} AND ${id} < ${p(after)}))`);
    }
    return all.join(' AND ');
  };
  const list = columns.all.map((col) => columns.name(col)).join(', ');
  const walks = ownerKeyForms(q.owner).map(
    (key, i) => `SELECT * FROM (SELECT ${list} FROM ${columns.table} WHERE ${where(key)} ${newest()}) AS f${i}`,
  );
  // Through TypeORM, better-sqlite3 binds an array by position and refuses numbered `?n` for it: plain `?`s there
  // (each value is used once, in the order of the text). PostgreSQL's `$n` are left as they are.
  const text = `${walks.join(' UNION ALL ')} ${newest()}`.replace(/\?\d+/g, '?');
  const rows: RawRow[] = await db.m.query(text, params);
  return rows.map((raw) => toRecord(columns.decode(raw)));
}
