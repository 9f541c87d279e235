import { Injectable } from '@nestjs/common';
import { isLoggingLevel, LOGGING_LEVELS } from '../common/logging-level.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';
import { SessionLogLevels } from './session-log-levels.js';

/**
 * `logging/setLevel` of the 2025 revisions: the session's calls send `ctx.log` messages at that level or above from
 * now on. Answered `{}`; a level that is none of RFC 5424's is -32602. Without a session the level is accepted but
 * kept nowhere (see `SessionLogLevels`).
 */
@Injectable()
export class LegacySetLevelHandler implements LegacyMethodHandler {
  constructor(private readonly levels: SessionLogLevels) {}

  serve(req: LegacyRequest, x: LegacyExchange): void {
    const reply = x.reply(req.id);
    const level = req.params.level;
    if (!isLoggingLevel(level)) {
      return reply.error(RpcError.invalidParams(`level must be one of ${LOGGING_LEVELS.join(', ')}`));
    }
    if (req.session) this.levels.set(req.session.id, level);
    reply.result({});
  }
}
