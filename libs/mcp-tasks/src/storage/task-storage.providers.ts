import type { Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MCP_TASKS_OPTIONS, TASK_EVENT_BUS, TASK_STORE } from '../mcp-tasks.constants.js';
import { createTaskStorage, type TaskStorage } from './task-storage.factory.js';

/** The registration's store and bus, made together (the bus may borrow the store's database). */
const TASK_STORAGE = Symbol('McpTasks:storage');

/** The store (`TaskStore`) and the bus (`TaskEventBus`) of one registration. */
export const taskStorageProviders: Provider[] = [
  { provide: TASK_STORAGE, useFactory: createTaskStorage, inject: [MCP_TASKS_OPTIONS, ModuleRef] },
  { provide: TASK_STORE, useFactory: (s: TaskStorage) => s.store, inject: [TASK_STORAGE] },
  { provide: TASK_EVENT_BUS, useFactory: (s: TaskStorage) => s.bus, inject: [TASK_STORAGE] },
];
