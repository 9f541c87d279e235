import type { IncomingMessage } from 'node:http';

/** What a strategy concluded: a user (the token's claims, or an app strategy's user object), or why not (`info`). */
export interface StrategyOutcome {
  user?: unknown;
  info?: unknown;
  /** With an app's strategy that accepted the bearer token: that token's claims (for the claims its user lacks). */
  token?: Record<string, unknown>;
}

/** Checks a request's bearer token (the built-in shared-secret check answers synchronously). */
export type TokenVerifier = (req: IncomingMessage) => StrategyOutcome | Promise<StrategyOutcome>;
