import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { LegacySessions } from './legacy-session.js';
import { ListCursorCodec } from './list-cursor.js';

const secret = randomBytes(32);
const sessions = new LegacySessions({ requestStateSecret: secret } as ResolvedOptions);
const req = (token?: string) =>
  ({ headers: token === undefined ? {} : { 'mcp-session-id': token } }) as IncomingMessage;
const caps = { elicitation: { form: { x: 1 } }, sampling: {}, roots: { listChanged: true }, experimental: { big: 1 } };

describe('LegacySessions', () => {
  it('round-trips the session for its owner, keeping only the input capabilities', () => {
    const [session, token] = sessions.open('2025-11-25', caps, { name: 'app', version: '1' }, 'owner-a');
    expect(token).toMatch(/^s1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(session.clientCapabilities).toEqual({
      elicitation: { form: {} },
      sampling: {},
      roots: { listChanged: true },
    });
    expect(sessions.of(req(token), 'owner-a')).toEqual(session);
    expect(sessions.of(req(), 'owner-a')).toBeUndefined();
  });

  it('refuses (404) a token of another owner, tampered, of another secret, or of another kind', () => {
    const [, token] = sessions.open('2025-11-25', {}, { name: 'app', version: '1' }, 'owner-a');
    const other = new LegacySessions({ requestStateSecret: randomBytes(32) } as ResolvedOptions);
    const [, foreign] = other.open('2025-11-25', {}, { name: 'app', version: '1' }, 'owner-a');
    const cursor = new ListCursorCodec(secret).seal({ createdAt: 1, id: 'x' }, 'owner-a', null);
    for (const bad of [`${token}x`, token.replace('.', '.A'), foreign, cursor, 'junk', '', 's1..'])
      expect(() => sessions.of(req(bad), 'owner-a')).toThrow(
        expect.objectContaining({ code: -32001, httpStatus: 404 }),
      );
    expect(() => sessions.of(req(token), 'owner-b')).toThrow(expect.objectContaining({ httpStatus: 404 }));
  });

  it('is visible ASCII under 2 KB whatever the client sends: names are cut to 200 characters', () => {
    const huge = { name: '🚀'.repeat(5_000), version: 'é'.repeat(5_000) };
    const [session, token] = sessions.open(
      '2025-11-25',
      { ...caps, sampling: { context: 'x'.repeat(1e4) } },
      huge,
      'o',
    );
    expect(token).toMatch(/^[\x21-\x7e]+$/);
    expect(token.length).toBeLessThanOrEqual(2048);
    expect(session.clientInfo?.version).toHaveLength(200);
    expect(sessions.of(req(token), 'o')).toEqual(session);
  });
});

describe('ListCursorCodec', () => {
  const cursors = new ListCursorCodec(secret);
  it('round-trips a place for the same lister and session scope only', () => {
    const c = cursors.seal({ createdAt: 5, id: 't' }, 'o', 's1');
    expect(cursors.open(c, 'o', 's1')).toEqual({ createdAt: 5, id: 't' });
    for (const [owner, session] of [
      ['p', 's1'],
      ['o', 's2'],
      ['o', null],
      ['o', undefined],
    ] as const)
      expect(() => cursors.open(c, owner, session)).toThrow('Invalid cursor');
    expect(() => cursors.open(`${c}x`, 'o', 's1')).toThrow('Invalid cursor');
    expect(() => cursors.open(42, 'o', 's1')).toThrow('Invalid cursor');
  });
});
