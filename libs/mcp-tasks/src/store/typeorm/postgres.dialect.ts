import type { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { StoreDialect } from './store-dialect.js';

/**
 * PostgreSQL: READ COMMITTED transactions (each statement sees everything committed before it),
 * row locks for compare-and-set, and transaction-scoped advisory locks for the caps — a count has no
 * row to lock, and two inserts would otherwise both see room for one more.
 */
export class PostgresDialect implements StoreDialect {
  constructor(private readonly dataSource: DataSource) {}

  write<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    // Explicit level: a server whose default is SERIALIZABLE would make writers fail instead of wait.
    return this.dataSource.transaction('READ COMMITTED', work);
  }

  read<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return work(this.dataSource.manager);
  }

  async lockCaps(m: EntityManager, owner: string, total: boolean): Promise<void> {
    // Two-key form: the first key namespaces our locks away from the app's own advisory locks.
    // Always total before owner, so two creates never wait on each other in opposite order.
    if (total) await m.query(`SELECT pg_advisory_xact_lock(hashtext('mcp_tasks.total'), 0)`);
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('mcp_tasks.owner'), hashtext($1))`, [owner]);
  }

  lockRows<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, skipLocked: boolean): SelectQueryBuilder<T> {
    qb.setLock('pessimistic_write');
    if (skipLocked) qb.setOnLocked('skip_locked');
    return qb;
  }
}
