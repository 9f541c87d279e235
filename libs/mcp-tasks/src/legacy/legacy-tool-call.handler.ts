import { Inject, Injectable } from '@nestjs/common';
import { LEGACY_PROTOCOL_VERSION, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { forLegacyWire } from '../tools/legacy-structured-content.js';
import { legacyCallVariant, taskParamOf } from './legacy-call.variant.js';
import { LegacyDispatch } from './legacy-dispatch.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';

/**
 * `tools/call` of the 2025 era, dispatched like a 2026-07-28 one with what the session declared (`LegacyDispatch`):
 * at 2025-11-25 with tasks on, `params.task` asks for a task (answered with the 2025-11-25 task at once); otherwise
 * the tool runs in the request, its progress streamed when the call carried a `progressToken`. This era has no
 * MRTR: input asked in the request is asked on the call's stream when the client declared it can answer
 * (`StreamQuestionChannel`), and refused otherwise. A call the client cancels is stopped and gets no answer.
 */
@Injectable()
export class LegacyToolCallHandler implements LegacyMethodHandler {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly legacy: LegacyDispatch,
  ) {}

  serve(req: LegacyRequest, x: LegacyExchange): Promise<void> {
    const { params, session, version } = req;
    const variant = () => {
      const tasksOn = this.options.tasks && version === LEGACY_PROTOCOL_VERSION;
      return legacyCallVariant({
        tasks: this.options.tasks,
        tasksOn,
        task: tasksOn ? taskParamOf(params.task) : undefined,
        session: session?.id,
        serverTtl: this.options.ttl,
        pollInterval: this.options.pollInterval,
      });
    };
    const subject = `Tool ${typeof params.name === 'string' ? params.name : ''}`;
    return this.legacy.serve({ ...req, method: 'tools/call' }, x, { subject, variant, shape: forLegacyWire });
  }
}
