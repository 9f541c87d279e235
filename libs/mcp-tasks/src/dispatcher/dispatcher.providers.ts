import type { Provider } from '@nestjs/common';
import { McpDispatcher } from './mcp.dispatcher.js';
import { METHOD_HANDLERS } from './methods.table.js';
import { RequestRounds } from './request-rounds.js';
import { TaskLookup } from './task.lookup.js';
import { TaskResumer } from './task.resumer.js';

/**
 * The 2026-07-28 methods the library answers itself: each handler the method table names, and the dispatcher; and
 * the dispatcher of stored calls, which resumes the tasks of instances that stopped.
 */
export const dispatcherProviders: Provider[] = [
  TaskLookup,
  RequestRounds,
  ...METHOD_HANDLERS,
  McpDispatcher,
  TaskResumer,
];
