import { createParamDecorator } from '@nestjs/common';

/**
 * Where Nest keeps parameter decorators' metadata (`@ToolArgs()`, `@ToolCtx()`, an app's own, `@Body()`, …), which
 * the pipeline must read. Nest exports the key only internally, so it is read off a probe decorated with a parameter
 * decorator of our own.
 */
export const PARAM_METADATA_KEY = ((): string => {
  class Probe {
    probe(): void {}
  }
  createParamDecorator(() => undefined)()(Probe.prototype, 'probe', 0);
  const [key] = Reflect.getOwnMetadataKeys(Probe, 'probe') as unknown[];
  if (typeof key !== 'string') throw new Error('McpTasksModule: cannot find where Nest keeps parameter decorators');
  return key;
})();
