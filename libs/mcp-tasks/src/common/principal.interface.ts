/**
 * Who is calling: the owner key tasks are bound to, and what authentication said about them.
 * @publicApi
 */
export interface Principal {
  /** Owner key: tasks are only served back to a request of the same owner (the key, or a form of it, stored). */
  key: string;
  /** Subject (token `sub`, or the host subject without authentication). */
  subject: string;
  /** Scopes granted to the caller. */
  scopes: string[];
  /** Claims of the caller's token, when authenticated. */
  claims?: Record<string, unknown>;
  /** The resource (token audience) the caller was authenticated for, when authenticated. */
  resource?: string;
}
