// Separate entry point so apps on the memory store never load TypeORM or a database driver.
export { TypeOrmTaskStore } from './typeorm-task.store.js';
export { McpTaskEntity } from './mcp-task.entity.js';
export { CreateMcpTasks1795943639786 } from './migrations/1795943639786-create-mcp-tasks.js';
export { AddMcpTasksLegacySessions1796031617106 } from './migrations/1796031617106-add-mcp-tasks-legacy-sessions.js';
export { AddMcpTasksListingIndexes1796112000000 } from './migrations/1796112000000-add-mcp-tasks-listing-indexes.js';
export { AddMcpTasksUpstream1796131508732 } from './migrations/1796131508732-add-mcp-tasks-upstream.js';
export { VersionMcpTasksOwnerKeys1796215433000 } from './migrations/1796215433000-version-mcp-tasks-owner-keys.js';
export { AddMcpTasksResume1796236800000 } from './migrations/1796236800000-add-mcp-tasks-resume.js';
export { mcpTasksEntities, mcpTasksMigrations } from './mcp-tasks-typeorm.js';
