import type { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * What differs between databases: how a store's writes are made atomic. The store itself is written
 * once against this, so the task logic (caps, compare-and-set, reclaim) cannot drift per database.
 */
export interface StoreDialect {
  /** Runs `work` in one transaction; rows and caps it locks stay locked until it ends. */
  write<T>(work: (m: EntityManager) => Promise<T>): Promise<T>;
  /** Runs a read that must not observe another write's uncommitted rows. */
  read<T>(work: (m: EntityManager) => Promise<T>): Promise<T>;
  /** Inside `write`: serialises cap checks for `owner`, and for the whole table when `total`. */
  lockCaps(m: EntityManager, owner: string, total: boolean): Promise<void>;
  /** Makes `qb` lock what it selects until the transaction ends; `skipLocked` omits rows others hold. */
  lockRows<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, skipLocked: boolean): SelectQueryBuilder<T>;
}
