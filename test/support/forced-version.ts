import { realmFetch } from '@mcp-tasks/client';

/**
 * A fetch that makes the v1 SDK client offer `version` in `initialize` (it always offers its latest): how a client
 * of an older revision connects.
 */
export function forcedVersion(version: string, next: typeof fetch = realmFetch): typeof fetch {
  return async (input, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string' && init.body.includes('"initialize"')) {
      const body = JSON.parse(init.body) as { method?: string; params?: { protocolVersion?: string } };
      if (body.method === 'initialize' && body.params) {
        body.params.protocolVersion = version;
        return next(input, { ...init, body: JSON.stringify(body) });
      }
    }
    return next(input, init);
  };
}
