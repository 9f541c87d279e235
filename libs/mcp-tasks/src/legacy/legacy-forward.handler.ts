import { Injectable } from '@nestjs/common';
import { LegacyDispatch } from './legacy-dispatch.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';

/**
 * A 2025-era request for a method the 2026-07-28 table answers (`resources/read`, `prompts/get`, …), dispatched
 * there with what the session declared (`LegacyDispatch`: questions on the request's stream, progress, cancel).
 * The result goes back without the 2026-07-28 `resultType`. A new such method is an entry in each table.
 */
@Injectable()
export class LegacyForwardHandler implements LegacyMethodHandler {
  constructor(private readonly legacy: LegacyDispatch) {}

  serve(req: LegacyRequest, x: LegacyExchange): Promise<void> {
    return this.legacy.serve(req, x, { subject: subjectOf(req) });
  }
}

/** How a refusal names the run: the prompt or resource asked for, else the method. */
function subjectOf({ method, params }: LegacyRequest): string {
  if (method === 'prompts/get' && typeof params.name === 'string') return `Prompt ${params.name}`;
  if (method === 'resources/read' && typeof params.uri === 'string') return `Resource ${params.uri}`;
  return method;
}
