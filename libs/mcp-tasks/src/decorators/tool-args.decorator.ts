import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** Parameter decorator: the validated arguments, or one field of them (`@ToolArgs('name')`); pipes apply. */
export const ToolArgs = createParamDecorator((field: string | undefined, ec: ExecutionContext) => {
  const args = ec.getArgByIndex(0) as Record<string, unknown> | undefined;
  return field ? args?.[field] : args;
});
