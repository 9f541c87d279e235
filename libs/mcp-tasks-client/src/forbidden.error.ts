import { McpAuthError, type AuthRefusal } from './mcp-auth.error.js';

/**
 * HTTP 403: the token is valid but does not allow this; `scopes` are all the request needs (`insufficient_scope`).
 * @publicApi
 */
export class ForbiddenError extends McpAuthError {
  override readonly name = 'ForbiddenError';

  constructor(refusal: AuthRefusal) {
    super(403, 'Forbidden', refusal);
  }
}
