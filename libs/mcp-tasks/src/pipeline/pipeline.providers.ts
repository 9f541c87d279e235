import type { Provider } from '@nestjs/common';
import { AppEnhancers } from './app-enhancers.js';
import { NestPipelines } from './nest-pipelines.js';
import { TaskGuards } from './task-guards.js';
import { ToolInvoker } from './tool.invoker.js';

/** Nest's enhancer pipelines: tool runs, the app's global enhancers, the guards of an access to a task. */
export const pipelineProviders: Provider[] = [NestPipelines, AppEnhancers, ToolInvoker, TaskGuards];
