// Metadata keys only the decorators read and write.

/** Where `@RequiredScopes` keeps the scopes of a tool method or class. */
export const REQUIRED_SCOPES_METADATA = 'mcp-tasks:required-scopes';
