import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';

/** Where clients find the protected-resource metadata (RFC 9728), for `WWW-Authenticate`. */
export const resourceMetadataUrl = (resource: string): string =>
  getOAuthProtectedResourceMetadataUrl(new URL(resource));

/** A quoted-string; a character a header may not carry (an app strategy's reason may have any) becomes `?`. */
const quote = (v: string): string => `"${v.replace(/[^\t\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&')}"`;

/** 401: no usable token. The body is a JSON-RPC error echoing the request id (the endpoint adds it). */
export function unauthorized(resource: string, description: string, scopes?: string[]): RpcError {
  const parts = [`resource_metadata=${quote(resourceMetadataUrl(resource))}`];
  if (description !== 'missing') parts.unshift(`error="invalid_token"`, `error_description=${quote(description)}`);
  if (scopes?.length) parts.push(`scope=${quote(scopes.join(' '))}`);
  return new RpcError(
    RpcCode.InvalidRequest,
    `Unauthorized: ${description === 'missing' ? 'a bearer token is required' : description}`,
    undefined,
    401,
    {
      'www-authenticate': `Bearer ${parts.join(', ')}`,
    },
  );
}

/** 403: the token lacks scopes; `scope` lists every scope the operation needs. */
export function insufficientScope(resource: string, needed: string[]): RpcError {
  const metadata = quote(resourceMetadataUrl(resource));
  const header = `Bearer error="insufficient_scope", scope=${quote(needed.join(' '))}, resource_metadata=${metadata}`;
  return new RpcError(
    RpcCode.InvalidRequest,
    `Forbidden: this needs the scopes ${needed.join(' ')}`,
    { requiredScopes: needed },
    403,
    {
      'www-authenticate': header,
    },
  );
}
