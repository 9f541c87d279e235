/** What a 401 or 403 answer said: its `WWW-Authenticate` challenge and the JSON-RPC error in its body. */
export interface AuthRefusal {
  /** The challenge's `error`, e.g. `invalid_token`, `insufficient_scope`. */
  error?: string;
  /** Why the request was refused. */
  description: string;
  /** The challenge's `scope`, split on spaces. */
  scopes: string[];
  /** The challenge's `resource_metadata`. */
  resourceMetadata?: string;
  /** The JSON-RPC error's `code` and `data`, when the body carried one. */
  code?: number;
  data?: unknown;
}

/**
 * The server refused a request at the HTTP level, with its reason: `UnauthorizedError` (401, the token) or
 * `ForbiddenError` (403, what the token allows). Every request path of the client (connect, tool calls, task
 * reads, polls, listen streams, raw requests) and both wires reject with these.
 * @publicApi
 */
export abstract class McpAuthError extends Error {
  /** The challenge's `error`: `invalid_token`, `insufficient_scope`, …; none when the request had no token. */
  readonly error?: string;
  /**
   * Why: the challenge's `error_description` (e.g. `the token has expired`), else the body's JSON-RPC message
   * without its `Unauthorized: ` / `Forbidden: ` prefix, else the HTTP status.
   */
  readonly description: string;
  /** The scopes the challenge names (`scope="…"`): for a 403, every scope the request needs. Empty when none. */
  readonly scopes: string[];
  /** The challenge's `resource_metadata`: the RFC 9728 metadata that names the authorization servers. */
  readonly resourceMetadata?: string;
  /** The JSON-RPC error code of the answer (`-32600` from McpTasksModule), when it carried one. */
  readonly code?: number;
  /** The JSON-RPC error's `data`, e.g. `{ requiredScopes }`. */
  readonly data?: unknown;

  protected constructor(
    /** The HTTP status: 401 or 403. */
    readonly status: 401 | 403,
    label: string,
    refusal: AuthRefusal,
  ) {
    super(`${label}: ${refusal.description}`);
    this.error = refusal.error;
    this.description = refusal.description;
    this.scopes = refusal.scopes;
    this.resourceMetadata = refusal.resourceMetadata;
    this.code = refusal.code;
    this.data = refusal.data;
  }
}
