/**
 * OAuth protection of the endpoint (the `auth` option): either the module's own JWT check (`secretOrKey` or
 * `jwksUri`; a PEM key or `jwksUri` needs `passport-jwt`, a shared secret nothing) or an app's passport strategy by
 * name (`strategy`, needs `passport`).
 * @publicApi
 */
export interface McpAuthOptions {
  /**
   * This server's resource identifier (RFC 8707/9728), an http(s) URL without a fragment, e.g.
   * `https://api.example.com/mcp`: tokens must be minted for it, and the metadata is served at
   * `/.well-known/oauth-protected-resource` followed by its path.
   * @default the URL each request was sent to: its origin (with `trustProxy`, from `X-Forwarded-Proto`/`-Host`) and
   * the endpoint's path as served (global prefix, version) — taken only from a host the app allows (`allowedHosts`, or
   * a localhost name for a request on loopback); any other request is refused (403)
   */
  resource?: string;
  /** Authorization servers clients should get tokens from (RFC 9728 `authorization_servers`). Required. */
  authorizationServers: string[];
  /** Accepted token issuer(s). Required with the module's own strategy. */
  issuer?: string | string[];
  /**
   * Accepted audience(s): a token for another resource is refused.
   * @default resource
   */
  audience?: string | string[];
  /**
   * HMAC secret (HS256/384/512, checked by the module itself) or PEM public key (checked by passport-jwt) of the
   * module's own strategy (this or `jwksUri`).
   */
  secretOrKey?: string | Buffer;
  /** JWKS endpoint of the module's own strategy (keys cached and rate-limited by jwks-rsa; needs `jwks-rsa`). */
  jwksUri?: string;
  /**
   * Accepted signing algorithms.
   * @default ['HS256'] with `secretOrKey`, ['RS256', 'ES256'] with `jwksUri`
   */
  algorithms?: string[];
  /**
   * Scopes advertised in the protected-resource metadata (`scopes_supported`).
   * @default none listed
   */
  scopesSupported?: string[];
  /**
   * Name of a passport strategy the app registered (`'jwt'` for `PassportStrategy(Strategy)` of passport-jwt, or the
   * name given: `PassportStrategy(Strategy, 'my-jwt')`); an unknown name fails at startup. Once it accepts the bearer
   * token, its user (what `validate()` returns) is read as claims (`sub`, `scope`/`scp`, `azp`/`client_id`, `aud`),
   * and a claim the user lacks is read from that token (when the strategy read the `Authorization` header): a
   * `validate()` returning `{ userId, username }` works as it is. A numeric `sub` is a subject. The audience is
   * still checked (see `requireAudience`). When set, `secretOrKey`/`jwksUri` are not used.
   * @default none: the module's own strategy
   */
  strategy?: string;
  /**
   * With `strategy`: `false` accepts a token that names no audience (`aud`), as `JwtService.sign` makes them unless
   * given `audience`. The risk: every audience-less token signed with the strategy's key is then good here, e.g. one
   * the app made for a password reset, or one from another service sharing the key; use it only for tokens the app
   * mints for itself with a key of its own. A token naming another audience is refused either way. Better: give
   * tokens an `aud` of the resource (`JwtModule.register({ signOptions: { audience } })`).
   * @default true: a token without `aud` is refused (401)
   */
  requireAudience?: boolean;
  /**
   * Who the caller is, from what authenticated it: `user` is the strategy's user (the module's own strategy: the
   * claims), `claims` the claims read from it and its token. Returns the subject tasks are owned by and, optionally,
   * the scopes granted and the OAuth client (each left out is read from the claims); no subject → 401. A throw
   * refuses the request: an `HttpException` with its status, anything else as a logged internal error (`-32603`).
   * @default the claims' `sub`, `scope`/`scp` and `azp`/`client_id`
   */
  principal?: (user: any, claims: Record<string, unknown>) => McpAuthPrincipal | undefined;
  /**
   * How long (ms) a verified token is remembered, so repeated requests (every `tasks/get` poll) skip signature
   * verification; never past the token's `exp`. A token is remembered from its second use on (tokens sent once are
   * not kept; at most 10 000 are). An app's `strategy` may consult state (revocation) on every request, so it gets
   * no cache unless asked. From 0 to 2^31-1.
   * @default 60_000 with the module's own strategy, 0 (off) with `strategy`
   */
  cacheTtl?: number;
  /**
   * `true` lists every tool in `tools/list`; otherwise a caller sees only the tools its scopes allow.
   * @default false
   */
  listAllTools?: boolean;
}

/**
 * What `auth.principal` returns: who a caller is.
 * @publicApi
 */
export interface McpAuthPrincipal {
  /** The subject tasks are owned by (a number is taken as its decimal text). */
  subject: string | number;
  /** Scopes granted. @default the claims' `scope`/`scp` */
  scopes?: string[];
  /** The OAuth client, part of the owner key. @default the claims' `azp`/`client_id` */
  client?: string;
}
