import { describe, expect, it } from '@jest/globals';
import { inputRequestId, isInputAnswer, parseInputRequestId } from './input-request-id.js';

describe('input request ids', () => {
  it.each(['confirm', 'a:b:c', 'ünïcödé 🚀', 'x'.repeat(300), ''])('round-trip the task and the key %#', (key) => {
    const id = inputRequestId('Xk3-_abc', key);
    expect(id.startsWith('mcp-tasks/in:Xk3-_abc:')).toBe(true);
    expect(parseInputRequestId(id)).toEqual({ taskId: 'Xk3-_abc', key });
  });

  it('refuse what is not one of ours', () => {
    for (const id of [
      7,
      null,
      'x',
      'mcp-tasks/in:',
      'mcp-tasks/in:task',
      'mcp-tasks/in::a',
      'mcp-tasks/in:t:not base64',
    ])
      expect(parseInputRequestId(id)).toBeUndefined();
  });

  it('tell a client answer to us from other posted responses', () => {
    const id = inputRequestId('t', 'k');
    expect(isInputAnswer({ jsonrpc: '2.0', id, result: {} })).toBe(true);
    expect(isInputAnswer({ jsonrpc: '2.0', id, error: { code: 1, message: 'no' } })).toBe(true);
    expect(isInputAnswer({ jsonrpc: '2.0', id: 1, result: {} })).toBe(false);
    expect(isInputAnswer({ jsonrpc: '2.0', id, method: 'x' })).toBe(false);
    expect(isInputAnswer([{ jsonrpc: '2.0', id, result: {} }])).toBe(false);
  });
});
