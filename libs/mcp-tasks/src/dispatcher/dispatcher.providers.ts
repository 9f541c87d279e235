import type { Provider } from '@nestjs/common';
import { McpDispatcher } from './mcp.dispatcher.js';
import { METHOD_HANDLERS } from './methods.table.js';
import { TaskLookup } from './task.lookup.js';

/** The 2026-07-28 methods the library answers itself: each handler the method table names, and the dispatcher. */
export const dispatcherProviders: Provider[] = [TaskLookup, ...METHOD_HANDLERS, McpDispatcher];
