import type { Provider } from '@nestjs/common';
import { SharedStoreWarning } from './shared-store.warning.js';
import { TaskRunner } from './task.runner.js';
import { TaskSweeper } from './task.sweeper.js';

/** Running tasks, sweeping expired and orphaned ones, and the warning of a store shared without a bus. */
export const tasksProviders: Provider[] = [TaskRunner, TaskSweeper, SharedStoreWarning];
