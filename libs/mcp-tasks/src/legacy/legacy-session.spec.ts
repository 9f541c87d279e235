import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { LegacySessions } from './legacy-session.js';
import { ListCursorCodec } from './list-cursor.codec.js';

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

// Sealed by the release before the sealing helper was shared (secret: 32 bytes of 7). A rolling deploy runs both:
// a session id or cursor one instance issued must still open on the next.
describe('tokens sealed by the previous release', () => {
  const secret7 = Buffer.alloc(32, 7);
  const SESSION =
    's1.eyJzaWQiOiJ2NDZQRURxOEgycW0zRW5TeXdYdHlRIiwib3duIjoibFNWb2RSVVFRNnZjcjkwbV9Ua01aUSIsInB2IjoiMjAyNS0xMS0yNSIs' +
    'ImNhcHMiOnsiZWxpY2l0YXRpb24iOnsiZm9ybSI6e319fSwiY2kiOnsibmFtZSI6ImFwcCIsInZlcnNpb24iOiIxIn19' +
    '.17Asx7uzPQ8ijOXc2eam9CnBW97tdZVqj2tH_kZYfQw';
  const CURSOR =
    'c1.eyJvd24iOiJsU1ZvZFJVUVE2dmNyOTBtX1RrTVpRIiwicyI6InMxIiwidCI6NSwiaSI6InQifQ' +
    '.efo3YUnbRP6QmtaH8jVUOfxmbrL_hEzcCeZ64itTjIY';

  it('opens a session id', () => {
    expect(new LegacySessions({ requestStateSecret: secret7 } as ResolvedOptions).of(req(SESSION), 'owner-a')).toEqual({
      id: 'v46PEDq8H2qm3EnSywXtyQ',
      protocolVersion: '2025-11-25',
      clientCapabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'app', version: '1' },
    });
  });

  it('opens a tasks/list cursor', () => {
    expect(new ListCursorCodec(secret7).open(CURSOR, 'owner-a', 's1')).toEqual({ createdAt: 5, id: 't' });
  });
});
