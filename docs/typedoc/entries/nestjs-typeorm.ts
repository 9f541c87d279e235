/**
 * The TypeORM store, its entity and migrations (a separate entry, so apps on the memory store never load TypeORM).
 *
 * @module @mcp-tasks/nestjs/typeorm
 */
export * from '../../../libs/mcp-tasks/src/store/typeorm/index.js';
