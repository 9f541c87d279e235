import { Inject } from '@nestjs/common';
import { TASK_EVENT_BUS, TASK_STORE } from '../mcp-tasks.constants.js';

/**
 * Injects the module's `TaskStore`: `constructor(@InjectTaskStore() store: TaskStore)`.
 * @publicApi
 */
export const InjectTaskStore = (): PropertyDecorator & ParameterDecorator => Inject(TASK_STORE);

/**
 * Injects the module's `TaskEventBus`: `constructor(@InjectTaskEventBus() bus: TaskEventBus)`.
 * @publicApi
 */
export const InjectTaskEventBus = (): PropertyDecorator & ParameterDecorator => Inject(TASK_EVENT_BUS);
