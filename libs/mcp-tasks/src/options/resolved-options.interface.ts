import type { Type } from '@nestjs/common';
import type { ClassTransformOptions } from 'class-transformer';
import type { IncomingMessage } from 'node:http';
import type { NatsBusConfig } from '../events/nats-bus.config.js';
import type { PostgresBusConfig } from '../events/postgres-bus.config.js';
import type { RedisBusConfig } from '../events/redis-bus.config.js';
import type { TaskEventBus } from '../events/task-event-bus.interface.js';
import type { RedisStoreConfig } from '../store/redis/redis-store.config.js';
import type { TypeOrmStoreConfig } from '../store/typeorm/typeorm-store.config.js';
import type { TaskStore } from '../store/task-store.interface.js';
import type { McpAuthOptions } from './mcp-auth-options.interface.js';
import type { McpServerIdentity, McpTasksModuleOptions } from './mcp-tasks-options.interface.js';
import type { McpUpstreamOptions } from './mcp-upstream-options.interface.js';

/**
 * The options with every default applied: what the library injects (`@Inject(MCP_TASKS_OPTIONS)`).
 * @publicApi
 */
export interface ResolvedOptions {
  server: McpServerIdentity;
  path: string;
  /** A store, or the app's TypeORM connection or Redis settings to build one on. */
  store: TaskStore | TypeOrmStoreConfig | RedisStoreConfig;
  bus?: TaskEventBus | PostgresBusConfig | RedisBusConfig | NatsBusConfig;
  lease: number;
  shutdownGrace: number;
  ttl: number | null;
  pollInterval: number;
  maxPerPrincipal: number;
  maxTasks: number;
  tasks: boolean;
  auth?: McpAuthOptions;
  subject?: (req: IncomingMessage) => string | Promise<string>;
  guards: NonNullable<McpTasksModuleOptions['guards']>;
  telemetry: boolean;
  requestStateSecret: Buffer;
  requestStateTtl: number;
  questionTimeout: number;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  fastPath: boolean;
  trustProxy: boolean;
  include?: Array<Type<unknown>>;
  serializer: ClassTransformOptions;
  upstreams: McpUpstreamOptions[];
}
