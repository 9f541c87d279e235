import type { Provider } from '@nestjs/common';
import { AppEnhancers } from './app-enhancers.js';
import { HandlerInvoker } from './handler.invoker.js';
import { NestPipelines } from './nest-pipelines.js';
import { TaskGuards } from './task-guards.js';
import { ToolInvoker } from './tool.invoker.js';

/**
 * Nest's enhancer pipelines: runs of tools (and any decorated method), the app's global enhancers, the guards of an
 * access to a task.
 */
export const pipelineProviders: Provider[] = [NestPipelines, AppEnhancers, HandlerInvoker, ToolInvoker, TaskGuards];
