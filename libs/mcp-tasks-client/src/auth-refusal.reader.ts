import { parseBearerChallenge } from './auth-challenge.parser.js';
import { ForbiddenError } from './forbidden.error.js';
import type { McpAuthError } from './mcp-auth.error.js';
import { UnauthorizedError } from './unauthorized.error.js';

/** The error for a 401 or 403 answer: its `WWW-Authenticate` challenge and the JSON-RPC error of its body. */
export async function readAuthRefusal(res: Response): Promise<McpAuthError> {
  const challenge = parseBearerChallenge(res.headers.get('www-authenticate'));
  const rpc = rpcError(await res.text().catch(() => ''));
  const scopes = (challenge.scope ?? '').split(' ').filter(Boolean);
  const message = rpc?.message?.replace(/^(unauthorized|forbidden)\s*:\s*/i, '');
  const description =
    challenge.error_description ||
    message ||
    (scopes.length ? `this needs the scopes ${scopes.join(' ')}` : `HTTP ${res.status} ${res.statusText}`.trim());
  const refusal = {
    error: challenge.error,
    description,
    scopes,
    resourceMetadata: challenge.resource_metadata,
    code: rpc?.code,
    data: rpc?.data,
  };
  return res.status === 401 ? new UnauthorizedError(refusal) : new ForbiddenError(refusal);
}

/** The JSON-RPC error of a body, if it is one. */
function rpcError(text: string): { code?: number; message?: string; data?: unknown } | undefined {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown; data?: unknown } }).error;
    if (!error || typeof error !== 'object') return undefined;
    return {
      code: typeof error.code === 'number' ? error.code : undefined,
      message: typeof error.message === 'string' ? error.message : undefined,
      data: error.data,
    };
  } catch {
    return undefined;
  }
}
