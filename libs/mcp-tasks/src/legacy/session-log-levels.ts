import { Injectable } from '@nestjs/common';
import type { LoggingLevel } from '../common/logging-level.js';

/** Sessions remembered; beyond it the least recently set is forgotten (it falls back to every level). */
const MAX_SESSIONS = 10_000;

/**
 * The level each 2025-era session set with `logging/setLevel`. Sessions are sealed tokens that nothing stores, so
 * the level is kept here, in this instance only: another instance serving the same session sends every level until
 * the client sets one there (sticky routing keeps a session's calls where it set its level).
 */
@Injectable()
export class SessionLogLevels {
  private readonly levels = new Map<string, LoggingLevel>();

  set(session: string, level: LoggingLevel): void {
    this.levels.delete(session);
    if (this.levels.size >= MAX_SESSIONS) this.levels.delete(this.levels.keys().next().value!);
    this.levels.set(session, level);
  }

  /**
   * The threshold of a call in `session`: the level it set, else `debug` (every message, until the client asks for
   * fewer). A call without a session (a stateless client) has nothing to remember a level by: it gets every level.
   */
  of(session: string | undefined): LoggingLevel {
    return (session !== undefined && this.levels.get(session)) || 'debug';
  }
}
