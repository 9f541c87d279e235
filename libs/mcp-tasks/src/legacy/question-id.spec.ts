import { describe, expect, it } from '@jest/globals';
import { ownerDigest } from '../owner/owner-key.js';
import { isInputAnswer, parseInputRequestId } from './input-request-id.js';
import { isQuestionId, QuestionIds } from './question-id.js';

const ids = new QuestionIds(Buffer.from('a-secret-of-enough-length'));
const asked = {
  run: 'r4nd0m.0',
  key: 'a:b 🚀',
  method: 'elicitation/create' as const,
  ownerKey: 'v1:["s","x","c","r"]',
};

describe('question ids', () => {
  it('round-trip what the answer is checked against; the owner only as a digest', () => {
    const id = ids.mint({ ...asked, session: 'sess' });
    expect(id.startsWith('mcp-tasks/q.')).toBe(true);
    const payload = Buffer.from(id.split('.')[1], 'base64url').toString();
    expect(payload).toContain('"sess"');
    expect(payload).not.toContain('["s","x","c","r"]');
    expect(ids.open(id)).toEqual({
      run: 'r4nd0m.0',
      key: 'a:b 🚀',
      method: 'elicitation/create',
      owner: ownerDigest(asked.ownerKey),
      session: 'sess',
    });
    expect(ids.open(ids.mint(asked))).not.toHaveProperty('session');
  });

  it('open nothing tampered with, sealed with another secret, or of another kind', () => {
    const id = ids.mint(asked);
    const [kind, body, mac] = id.split('.');
    const other = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${kind}.${Buffer.from(JSON.stringify({ ...other, o: 'someone' })).toString('base64url')}.${mac}`;
    for (const bad of [forged, `${id}x`, new QuestionIds(Buffer.from('another-secret-enough')).mint(asked), 'x', 7]) {
      expect(ids.open(bad)).toBeUndefined();
    }
    expect(parseInputRequestId(id)).toBeUndefined();
  });

  it("let a client's answer to one through the body check, and no other response", () => {
    const id = ids.mint(asked);
    expect(isQuestionId(id)).toBe(true);
    expect(isInputAnswer({ jsonrpc: '2.0', id, result: {} })).toBe(true);
    expect(isInputAnswer({ jsonrpc: '2.0', id, error: { code: -1, message: 'no' } })).toBe(true);
    expect(isInputAnswer({ jsonrpc: '2.0', id: 'mcp-tasks/qx', result: {} })).toBe(false);
    expect(isInputAnswer({ jsonrpc: '2.0', id, method: 'x' })).toBe(false);
  });
});
