import { legacyHeaders, request as legacyRequest } from '../../support/legacy-wire.js';
import { said, type Target } from '../support/target.js';

const ELICIT = { elicitation: {} };

/**
 * State the client holds is sealed: an MRTR `requestState`, a 2025-era `Mcp-Session-Id` and a `tasks/list`
 * cursor cannot be forged, altered, or carried to another caller.
 */
export async function sealedState(t: Target): Promise<void> {
  const tool = { name: 'test_input_required_result_elicitation', arguments: {} };
  const round = await t.rpc('tools/call', tool, { caps: ELICIT });
  const state: unknown = round.json?.result?.requestState;
  if (
    !t.check('sealed state: an MRTR round hands out a requestState (control)', typeof state === 'string', said(round))
  )
    return;
  const s = state as string;
  const flipped = `${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`;
  const answers = { inputResponses: { user_name: { action: 'accept', content: { name: 'x' } } } };
  const tries: Array<[string, string, string | undefined]> = [
    ['an altered requestState', flipped, undefined],
    ['a forged requestState', Buffer.from('{"tool":"x"}').toString('base64url') + '.AAAA', undefined],
    ["another caller's requestState", s, t.token({ sub: 'mallory' })],
  ];
  for (const [name, requestState, token] of tries) {
    const r = await t.rpc('tools/call', { ...tool, ...answers, requestState }, { caps: ELICIT, token });
    const ok = r.json?.error?.code === -32602 && r.json?.error?.message === 'Invalid requestState';
    t.check(`sealed state: ${name} is -32602 Invalid requestState`, ok, said(r));
  }
  const session = await legacySession(t, t.token());
  if (!t.check('sealed state: a 2025-era session is opened (control)', !!session, 'initialize')) return;
  const forged = [
    ['an altered session id', `${session!.slice(0, -1)}${session!.endsWith('A') ? 'B' : 'A'}`, t.token()],
    ["another caller's session id", session!, t.token({ sub: 'mallory' })],
  ] as const;
  for (const [name, id, token] of forged) {
    const r = await t.http(
      'POST',
      '/mcp',
      { ...legacyHeaders(id), authorization: `Bearer ${token}` },
      JSON.stringify(legacyRequest('tools/list', {})),
    );
    t.check(
      `sealed state: ${name} is 404 Session not found`,
      r.status === 404 && r.json?.error?.code === -32001,
      said(r),
    );
  }
  const cursor = await t.http(
    'POST',
    '/mcp',
    { ...legacyHeaders(session!), authorization: `Bearer ${t.token()}` },
    JSON.stringify(legacyRequest('tasks/list', { cursor: 'eyJvZmZzZXQiOjB9.AAAA' })),
  );
  const ok = cursor.json?.error?.code === -32602 && cursor.json?.error?.message === 'Invalid cursor';
  t.check('sealed state: a forged tasks/list cursor is -32602 Invalid cursor', ok, said(cursor));
}

async function legacySession(t: Target, token: string): Promise<string | undefined> {
  const init = legacyRequest('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'security-suite', version: '1.0.0' },
  });
  const r = await t.http(
    'POST',
    '/mcp',
    { ...legacyHeaders(undefined, { 'mcp-protocol-version': null }), authorization: `Bearer ${token}` },
    JSON.stringify(init),
  );
  const id = r.headers['mcp-session-id'];
  return typeof id === 'string' ? id : undefined;
}
