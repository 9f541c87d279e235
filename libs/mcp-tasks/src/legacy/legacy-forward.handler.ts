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
    return this.legacy.serve(req, x, { label: req.method });
  }
}
