import jwt from 'jsonwebtoken';
import { DEMO_ISSUER } from '../../../src/demo-auth.js';
import { said, type Target } from '../support/target.js';

/** The secret the demo signed with before it had to be given one: printed in the repository's history. */
const OLD_DEMO_SECRET = 'demo-secret-change-me-demo-secret-change-me';

/**
 * Audience binding and token checks: only a token minted by the issuer, for this resource, unexpired, with a
 * subject, signed with an allowed algorithm, gets in; everything else is 401 with a challenge naming the metadata.
 */
export async function tokens(t: Target): Promise<void> {
  const listed = (token: string | null) => t.rpc('tools/list', {}, { token });
  const good = await listed(t.token());
  t.check('tokens: a valid token is served (control)', good.status === 200 && !!good.json?.result, said(good));
  const cases: Array<[string, string | null]> = [
    ['no token', null],
    ['a token for another resource server', t.token({ aud: 'http://other-server.example/mcp' })],
    ['a token for this server on another port', t.token({ aud: `http://127.0.0.1:${t.port + 1}/mcp` })],
    ['an expired token', t.token({ expiresIn: -120 })],
    ['a token from another issuer', t.token({ iss: 'https://mallory.example' })],
    ['a token signed with another secret', t.token({ secret: 'mallory-secret-mallory-secret-mallory-secret' })],
    ['a token signed with the demo secret once printed in the repository', t.token({ secret: OLD_DEMO_SECRET })],
    [
      'an unsigned token (alg none)',
      jwt.sign({ sub: 'alice', aud: t.resource, iss: DEMO_ISSUER }, null as never, { algorithm: 'none' }),
    ],
    ['a token without a subject', jwt.sign({ aud: t.resource, scope: 'export' }, t.secret, { issuer: DEMO_ISSUER })],
    ['a truncated token', t.token().slice(0, -6)],
  ];
  for (const [name, token] of cases) {
    const r = await listed(token);
    const challenge = String(r.headers['www-authenticate'] ?? '');
    const ok =
      r.status === 401 &&
      r.json?.error?.code === -32600 &&
      challenge.startsWith('Bearer ') &&
      challenge.includes('resource_metadata="');
    t.check(`tokens: ${name} → 401 with a challenge`, ok, `${said(r)} | ${challenge.slice(0, 90)}`);
  }
}
