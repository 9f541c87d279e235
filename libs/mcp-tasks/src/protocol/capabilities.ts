import { TASKS_EXTENSION, TASKS_REQUIRED } from '../mcp-tasks.constants.js';
import { RpcError } from './rpc.error.js';

/** Whether *this* request declared the Tasks extension (capabilities travel with each request on this wire). */
export const declaresTasks = (caps: Record<string, any>): boolean =>
  !!caps?.extensions && typeof caps.extensions === 'object' && TASKS_EXTENSION in caps.extensions;

/** `-32021` naming the Tasks extension as the capability the request lacks. */
export const tasksNotDeclared = (message: string): RpcError => RpcError.missingCapability(TASKS_REQUIRED, message);
