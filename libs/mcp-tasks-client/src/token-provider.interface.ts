import type { UnauthorizedError } from './unauthorized.error.js';

/**
 * What the client tells a token provider when it asks.
 * @publicApi
 */
export interface TokenRequest {
  /**
   * Set when the server refused the token the provider gave last (HTTP 401, e.g. `description`
   * `the token has expired`): give a fresh one. The request is sent again only with a different token.
   */
  rejected?: UnauthorizedError;
}

/**
 * Gives the bearer token for a request: called before each request the client sends (listen streams and every
 * poll of a task included), and again after a 401. Cache inside it if minting a token is costly.
 * @publicApi
 */
export type TokenProvider = (request: TokenRequest) => string | Promise<string>;
