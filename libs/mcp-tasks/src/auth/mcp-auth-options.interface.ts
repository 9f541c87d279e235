/**
 * OAuth protection of the endpoint (`auth` option). Either the module's own JWT strategy
 * (`secretOrKey` or `jwksUri`) or an app's passport strategy by name (`strategy`).
 */
export interface McpAuthOptions {
  /**
   * This server's resource identifier (RFC 8707/9728), e.g. `https://api.example.com/mcp`. Tokens must be minted
   * for it.
   */
  resource: string;
  /** Authorization servers clients should get tokens from (RFC 9728 `authorization_servers`). */
  authorizationServers: string[];
  /** Accepted token issuer(s). Required with the module's own strategy. */
  issuer?: string | string[];
  /** Accepted audience(s). Default: `resource` (a token for another resource is refused). */
  audience?: string | string[];
  /** HMAC secret or PEM public key of the module's own strategy. */
  secretOrKey?: string | Buffer;
  /** JWKS endpoint of the module's own strategy (keys cached and rate-limited by jwks-rsa). */
  jwksUri?: string;
  /** Accepted signing algorithms. Default: `['HS256']` with `secretOrKey`, `['RS256', 'ES256']` with `jwksUri`. */
  algorithms?: string[];
  /** Scopes advertised in the protected-resource metadata (`scopes_supported`). Default: none listed. */
  scopesSupported?: string[];
  /**
   * Name of a passport strategy the app registered already (e.g. `PassportStrategy(JwtStrategy, 'my-jwt')`).
   * Its `req.user` is read as token claims (`sub`, `scope`/`scp`, `azp`/`client_id`, `aud`).
   * When set, `secretOrKey`/`jwksUri` are not used.
   */
  strategy?: string;
  /**
   * How long (ms) a verified token is remembered, so repeated requests (every `tasks/get` poll) skip
   * signature verification; never past the token's `exp`. A token is remembered from its second use
   * on (tokens sent once are not kept; at most 10 000 are). Default 60 000 with the built-in strategy,
   * 0 (off) with an app's `strategy`, whose `validate` may consult state (revocation) on every request.
   */
  cacheTtl?: number;
  /** `true` lists every tool in `tools/list`; by default a caller sees only the tools its scopes allow. */
  listAllTools?: boolean;
}
