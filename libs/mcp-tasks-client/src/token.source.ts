import type { TokenProvider, TokenRequest } from './token-provider.interface.js';

/** A connection's `token` option: none, a fixed token, or a provider asked before each request. */
export class TokenSource {
  constructor(private readonly token: string | TokenProvider | undefined) {
    if (token !== undefined && typeof token !== 'string' && typeof token !== 'function')
      throw new TypeError(`connect: token must be a string or a function that returns one, not ${String(token)}`);
  }

  /** Whether asking again can give another token. */
  get renewable(): boolean {
    return typeof this.token === 'function';
  }

  /** The token to send now (`undefined`: none). */
  async current(request: TokenRequest = {}): Promise<string | undefined> {
    // An empty fixed token means none, as an unset MCP_TOKEN does.
    if (typeof this.token !== 'function') return this.token || undefined;
    const token = await this.token(request);
    if (typeof token !== 'string' || token === '')
      throw new TypeError(
        `connect: the token provider gave ${JSON.stringify(token)} instead of a token (a non-empty string)`,
      );
    return token;
  }
}
