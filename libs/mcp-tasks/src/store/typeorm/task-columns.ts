import type { DataSource, Driver, EntityMetadata } from 'typeorm';
import { McpTaskEntity } from './mcp-task.entity.js';

export type TaskColumn = EntityMetadata['columns'][number];
/** A row as the driver returns it: values by column name, not yet converted. */
export type RawRow = Record<string, unknown>;

/**
 * `mcp_tasks` as TypeORM maps it (names, types, transformers), read once from the DataSource's metadata, so the
 * store's own SQL follows the entity. Values are converted with the driver's own rules, as TypeORM would, but
 * without building entities or query builders on every call.
 */
export class TaskColumns {
  /** The table, quoted (with its schema when the DataSource has one). */
  readonly table: string;
  readonly all: readonly TaskColumn[];
  private readonly driver: Driver;
  private readonly byProperty: Map<string, TaskColumn>;

  constructor(dataSource: DataSource) {
    const meta = dataSource.getMetadata(McpTaskEntity);
    this.driver = dataSource.driver;
    this.table = meta.tablePath
      .split('.')
      .map((part) => this.driver.escape(part))
      .join('.');
    this.all = meta.columns;
    this.byProperty = new Map(meta.columns.map((c) => [c.propertyName, c]));
  }

  /** The columns mapping these entity properties, in that order. */
  of(properties: readonly string[]): TaskColumn[] {
    return properties.map((p) => {
      const column = this.byProperty.get(p);
      if (!column) throw new Error(`TypeOrmTaskStore: McpTaskEntity maps no property "${p}"`);
      return column;
    });
  }

  /** The quoted name of a column. */
  name(column: TaskColumn): string {
    return this.driver.escape(column.databaseName);
  }

  /** A row read with every column, as the entity it maps. */
  decode(raw: RawRow): McpTaskEntity {
    const row: Record<string, unknown> = {};
    for (const c of this.all) row[c.propertyName] = this.driver.prepareHydratedValue(raw[c.databaseName], c);
    return row as unknown as McpTaskEntity;
  }

  /** Parameter values for `columns`, taken from an entity-shaped object. */
  encode(row: Partial<McpTaskEntity>, columns: readonly TaskColumn[]): unknown[] {
    const values = row as Record<string, unknown>;
    // `?? null`: better-sqlite3 refuses `undefined`; pg sends it as NULL anyway.
    return columns.map((c) => this.driver.preparePersistentValue(values[c.propertyName], c) ?? null);
  }
}
