import type { DataSource, Driver, EntityMetadata } from 'typeorm';
import { McpTaskEntity } from './mcp-task.entity.js';
import { PACKED_ROW } from './task-sql.js';

export type TaskColumn = EntityMetadata['columns'][number];
/** A row as the driver returns it: values by column name, not yet converted. */
export type RawRow = Record<string, unknown>;
type FromJson = (value: unknown) => unknown;

/**
 * Column types a packed row carries in the form pg's parsers give them (text; json parsed; integers as numbers;
 * bigint as text, see `SqlFlavour.packRow`), which TypeORM's drivers then pass on as they are: they convert only
 * other types (dates, enums, arrays, booleans).
 */
const JSON_NATIVE = new Set(['text', 'varchar', 'json', 'jsonb', 'bigint', 'integer', 'int', 'int4']);

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
  /** Per column (in `all` order), how a value of a packed row becomes the property's value. */
  private readonly fromJson: FromJson[];

  constructor(dataSource: DataSource) {
    const meta = dataSource.getMetadata(McpTaskEntity);
    this.driver = dataSource.driver;
    this.table = meta.tablePath
      .split('.')
      .map((part) => this.driver.escape(part))
      .join('.');
    this.all = meta.columns;
    this.byProperty = new Map(meta.columns.map((c) => [c.propertyName, c]));
    this.fromJson = meta.columns.map((c) => this.jsonConversion(c));
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

  /** A row read with every column (or packed, see `SqlFlavour.packRow`), as the entity it maps. */
  decode(raw: RawRow): McpTaskEntity {
    const row: Record<string, unknown> = {};
    const packed = raw[PACKED_ROW];
    const all = this.all;
    if (typeof packed === 'string') {
      const values = JSON.parse(packed) as unknown[];
      for (let i = 0; i < all.length; i++) row[all[i].propertyName] = this.fromJson[i](values[i]);
    } else for (const c of all) row[c.propertyName] = this.driver.prepareHydratedValue(raw[c.databaseName], c);
    return row as unknown as McpTaskEntity;
  }

  /**
   * What `prepareHydratedValue` does to a value of this column arriving as JSON: for JSON-native types only the
   * column's transformers (TypeORM applies an array of them last to first), without the driver's checks of every
   * other type per value (~0.2 µs a column, ~5 µs a task's row).
   */
  private jsonConversion(c: TaskColumn): FromJson {
    if (typeof c.type !== 'string' || !JSON_NATIVE.has(c.type))
      return (value) => this.driver.prepareHydratedValue(value, c);
    const transformers = c.transformer ? [c.transformer].flat().reverse() : [];
    if (!transformers.length) return (value) => value;
    return (value) => transformers.reduce((v, t) => t.from(v), value);
  }

  /** Parameter values for `columns`, taken from an entity-shaped object. */
  encode(row: Partial<McpTaskEntity>, columns: readonly TaskColumn[]): unknown[] {
    const values = row as Record<string, unknown>;
    // `?? null`: better-sqlite3 refuses `undefined`; pg sends it as NULL anyway.
    return columns.map((c) => this.driver.preparePersistentValue(values[c.propertyName], c) ?? null);
  }
}
