import { McpTaskEntity } from './mcp-task.entity.js';
import { CreateMcpTasks1795943639786 } from './migrations/1795943639786-create-mcp-tasks.js';
import { AddMcpTasksLegacySessions1796031617106 } from './migrations/1796031617106-add-mcp-tasks-legacy-sessions.js';
import { AddMcpTasksListingIndexes1796112000000 } from './migrations/1796112000000-add-mcp-tasks-listing-indexes.js';
import { AddMcpTasksUpstream1796131508732 } from './migrations/1796131508732-add-mcp-tasks-upstream.js';
import { VersionMcpTasksOwnerKeys1796215433000 } from './migrations/1796215433000-version-mcp-tasks-owner-keys.js';
import { AddMcpTasksResume1796236800000 } from './migrations/1796236800000-add-mcp-tasks-resume.js';

/**
 * Entities `TypeOrmTaskStore` needs in the app's DataSource: `entities: [...own, ...mcpTasksEntities]`.
 * @publicApi
 */
export const mcpTasksEntities = [McpTaskEntity];

/**
 * Every migration this library ships, in timestamp order (as TypeORM runs them): `migrations: [...own, ...these]`.
 * @publicApi
 */
export const mcpTasksMigrations = [
  CreateMcpTasks1795943639786,
  AddMcpTasksLegacySessions1796031617106,
  AddMcpTasksListingIndexes1796112000000,
  AddMcpTasksUpstream1796131508732,
  VersionMcpTasksOwnerKeys1796215433000,
  AddMcpTasksResume1796236800000,
];
