import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';

/**
 * Parameter decorator: the validated arguments, or one field of them (`@ToolArgs('name')`); pipes apply.
 * @publicApi
 */
export const ToolArgs = createParamDecorator((field: string | undefined, ec: ExecutionContext) => {
  const args = (ec.getArgByIndex(2) as McpCall | undefined)?.args as Record<string, unknown> | undefined;
  return field ? args?.[field] : args;
});
