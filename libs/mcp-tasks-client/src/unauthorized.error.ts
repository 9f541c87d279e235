import { McpAuthError, type AuthRefusal } from './mcp-auth.error.js';

/**
 * HTTP 401: no token, or one the server does not accept (expired, not for this resource, bad signature…).
 * A token provider was asked again first, and the request sent again when it gave another token.
 * @publicApi
 */
export class UnauthorizedError extends McpAuthError {
  override readonly name = 'UnauthorizedError';

  constructor(refusal: AuthRefusal) {
    super(401, 'Unauthorized', refusal);
  }
}
