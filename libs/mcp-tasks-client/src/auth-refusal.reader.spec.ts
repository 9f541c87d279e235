import { describe, expect, it } from '@jest/globals';
import { parseBearerChallenge } from './auth-challenge.parser.js';
import { readAuthRefusal } from './auth-refusal.reader.js';
import { ForbiddenError } from './forbidden.error.js';
import { UnauthorizedError } from './unauthorized.error.js';

const answer = (status: number, body: string, challenge?: string) =>
  new Response(body, { status, headers: challenge ? { 'www-authenticate': challenge } : {} });

describe('parseBearerChallenge', () => {
  it('reads quoted (with escapes) and bare parameters, case-insensitive names', () => {
    expect(
      parseBearerChallenge('Bearer error="invalid_token", Error_Description="the \\"exp\\" claim", realm=mcp'),
    ).toEqual({ error: 'invalid_token', error_description: 'the "exp" claim', realm: 'mcp' });
  });

  it('reads only the Bearer challenge of several, and nothing without one', () => {
    expect(parseBearerChallenge('DPoP error="use_dpop_nonce", Bearer scope="a b", Basic realm="x"')).toEqual({
      scope: 'a b',
    });
    expect(parseBearerChallenge('Basic realm="x"')).toEqual({});
    expect(parseBearerChallenge('Bearer')).toEqual({});
    expect(parseBearerChallenge(null)).toEqual({});
  });
});

describe('readAuthRefusal', () => {
  it('a 401 without a JSON body or a challenge still says what happened', async () => {
    const error = await readAuthRefusal(answer(401, '<html>no</html>'));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ description: 'HTTP 401', scopes: [], error: undefined, code: undefined });
    expect(error.message).toBe('Unauthorized: HTTP 401');
  });

  it('a 403 that names scopes but gives no reason: the reason is the scopes', async () => {
    const error = await readAuthRefusal(answer(403, '', 'Bearer error="insufficient_scope", scope="export deploy"'));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ description: 'this needs the scopes export deploy', scopes: ['export', 'deploy'] });
  });

  it('error_description wins over the JSON-RPC message, whose code and data are kept', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32600, message: 'Unauthorized: x', data: 7 },
    });
    const error = await readAuthRefusal(
      answer(401, body, 'Bearer error="invalid_token", error_description="jwt expired"'),
    );
    expect(error).toMatchObject({ description: 'jwt expired', error: 'invalid_token', code: -32600, data: 7 });
  });
});
