import type { Provider } from '@nestjs/common';
import { InputAnswerHandler } from './input-answer.handler.js';
import { InputDelivery } from './input-delivery.js';
import { LegacyDispatch } from './legacy-dispatch.js';
import { LEGACY_METHOD_HANDLERS } from './legacy-methods.table.js';
import { LegacySessions } from './legacy-session.js';
import { LegacyStreams } from './legacy-streams.js';
import { LegacyRouter } from './legacy.router.js';
import { RequestCancels } from './request-cancels.js';
import { SessionLogLevels } from './session-log-levels.js';
import { SseEventLog } from './sse-event.log.js';
import { SyncAnswerHandler } from './sync-answer.handler.js';
import { SyncQuestions } from './sync-questions.js';

/**
 * The 2025-era wire: sessions, each handler the legacy method table names, streams (and the resumable replies'
 * events), the client's answers (to a task's questions, to a call's) and the questions calls wait on.
 */
export const legacyProviders: Provider[] = [
  LegacySessions,
  LegacyDispatch,
  ...LEGACY_METHOD_HANDLERS,
  LegacyStreams,
  InputDelivery,
  InputAnswerHandler,
  SyncQuestions,
  SyncAnswerHandler,
  RequestCancels,
  SessionLogLevels,
  SseEventLog,
  LegacyRouter,
];
