import type { Provider } from '@nestjs/common';
import { InputAnswerHandler } from './input-answer.handler.js';
import { InputDelivery } from './input-delivery.js';
import { LEGACY_METHOD_HANDLERS } from './legacy-methods.table.js';
import { LegacySessions } from './legacy-session.js';
import { LegacyStreams } from './legacy-streams.js';
import { LegacyRouter } from './legacy.router.js';
import { RequestCancels } from './request-cancels.js';

/** The 2025-era wire: sessions, each handler the legacy method table names, streams, the client's answers. */
export const legacyProviders: Provider[] = [
  LegacySessions,
  ...LEGACY_METHOD_HANDLERS,
  LegacyStreams,
  InputDelivery,
  InputAnswerHandler,
  RequestCancels,
  LegacyRouter,
];
