import type { Provider } from '@nestjs/common';
import { McpTasksHealthIndicator } from './mcp-tasks.health-indicator.js';

/** The `@nestjs/terminus` health indicator (exported to the app). */
export const healthProviders: Provider[] = [McpTasksHealthIndicator];
