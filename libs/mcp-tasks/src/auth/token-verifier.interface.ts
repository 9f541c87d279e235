import type { IncomingMessage } from 'node:http';

/** What a strategy concluded: a user (the token's claims), or why not (`info`). */
export interface StrategyOutcome {
  user?: unknown;
  info?: unknown;
}

/** Checks a request's bearer token (the built-in shared-secret check answers synchronously). */
export type TokenVerifier = (req: IncomingMessage) => StrategyOutcome | Promise<StrategyOutcome>;
