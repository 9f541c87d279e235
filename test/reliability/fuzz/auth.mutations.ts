import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { bases, rpcId } from './bases.js';
import { caseOf, draftOf, TASKS } from './case.js';
import { demoToken, type DemoTokenClaims } from '../../../src/demo-token.js';
import { DEMO_ISSUER } from '../../../src/demo-auth.js';
import { DEMO_JWT_SECRET } from '../support/demo-process.js';

const signed = (port: number, c: Omit<DemoTokenClaims, 'secret'> & { secret?: string }) =>
  demoToken(port, { secret: DEMO_JWT_SECRET, ...c });

/**
 * Against the demo in auth mode (MCP_AUTH=1, listening at `port`): every request without a usable
 * token is 401 with a challenge; a good token without the tool's scope is 403.
 */
export const badTokens = (port: number) =>
  fc
    .tuple(
      bases,
      rpcId,
      fc.constantFrom(
        'missing',
        'garbage',
        'not-bearer',
        'bad-signature',
        'expired',
        'wrong-audience',
        'wrong-issuer',
        'no-subject',
        'alg-none',
        'truncated',
      ),
      fc.string({ maxLength: 80 }),
      fc.string({ minLength: 1, maxLength: 12 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'a')),
    )
    .map(([b, id, how, junk, sub]) => {
      const d = draftOf(b, id);
      const good = (c: Partial<DemoTokenClaims> = {}) => signed(port, { sub, ...c });
      const aud = `http://127.0.0.1:${port}/mcp`;
      const header = {
        missing: undefined,
        garbage: `Bearer ${junk.replace(/[^\x20-\x7e]/g, '')}`,
        'not-bearer': `Basic ${Buffer.from(`${sub}:${junk}`).toString('base64')}`,
        'bad-signature': `Bearer ${good({ secret: `not-the-demo-secret-${junk}` })}`,
        expired: `Bearer ${good({ expiresIn: -60 })}`,
        'wrong-audience': `Bearer ${good({ aud: `http://127.0.0.1:${port + 1}/mcp` })}`,
        'wrong-issuer': `Bearer ${good({ iss: 'https://mallory.example' })}`,
        'no-subject': `Bearer ${jwt.sign({ scope: 'export', aud, iss: DEMO_ISSUER }, DEMO_JWT_SECRET)}`,
        'alg-none': `Bearer ${jwt.sign({ sub, aud, iss: DEMO_ISSUER }, null as never, { algorithm: 'none' })}`,
        truncated: `Bearer ${good().slice(0, -5)}`,
      }[how];
      if (header !== undefined) d.headers.authorization = header;
      return caseOf(`auth:${how}`, d, ['401:-32600']);
    });

/** A valid token without the scope the tool needs. */
export const missingScope = (port: number) =>
  fc
    .tuple(rpcId, fc.stringMatching(/^[a-z]{1,12}$/), fc.constantFrom('', 'deploy', 'other'))
    .map(([id, sub, scope]) => {
      const d = draftOf(
        {
          method: 'tools/call',
          params: { name: 'export_project', arguments: { project: 'p', files: 1, delayMs: 0 } },
          caps: TASKS,
          allow: [],
        },
        id,
      );
      d.headers.authorization = `Bearer ${signed(port, { sub, scope })}`;
      return caseOf('auth:insufficient-scope', d, ['403:-32600']);
    });
