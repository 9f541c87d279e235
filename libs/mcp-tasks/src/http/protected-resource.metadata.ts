import type { McpAuthOptions } from '../options/mcp-auth-options.interface.js';

/** Where RFC 9728 puts protected-resource metadata: this, followed by the resource's path. */
export const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The RFC 9728 metadata document of the endpoint, for `resource`. */
export const protectedResourceMetadata = (auth: McpAuthOptions, resource: string): Record<string, unknown> => ({
  resource,
  authorization_servers: auth.authorizationServers,
  ...(auth.scopesSupported ? { scopes_supported: auth.scopesSupported } : {}),
  bearer_methods_supported: ['header'],
});

/** The metadata paths for a resource URL: the well-known path suffixed with the resource's path, and bare. */
export function metadataPaths(resource: string): string[] {
  const path = new URL(resource).pathname.replace(/\/+$/, '');
  return path ? [`${WELL_KNOWN}${path}`, WELL_KNOWN] : [WELL_KNOWN];
}
