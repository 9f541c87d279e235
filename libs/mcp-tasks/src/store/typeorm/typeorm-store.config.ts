/**
 * The `store: { type: 'typeorm' }` option: tasks in the app's TypeORM database.
 * @publicApi
 */
export interface TypeOrmStoreConfig {
  type: 'typeorm';
  /**
   * Name of the app's TypeORM connection (as given to `TypeOrmModule.forRoot({ name })`).
   * @default the unnamed (default) connection
   */
  dataSource?: string;
}
