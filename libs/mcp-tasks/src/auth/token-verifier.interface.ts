import type { IncomingMessage } from 'node:http';

/** What a strategy concluded: a user (the token's claims), or why not (`info`). */
export interface StrategyOutcome {
  user?: unknown;
  info?: unknown;
}

/** Checks a request's bearer token. */
export type TokenVerifier = (req: IncomingMessage) => Promise<StrategyOutcome>;
