import { describe, expect, it } from '@jest/globals';
import { encodeParamValue, paramHeaders } from './param-headers.js';

describe('Mcp-Param-* values (SEP-2243 value encoding)', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
    ['', '=?base64??='],
    [42, '42'],
    [-7, '-7'],
    [false, 'false'],
  ])('%j is sent as %s', (value, header) => {
    expect(encodeParamValue(value)).toBe(header);
  });

  it('takes the marked properties along properties chains, skipping absent, null and non-primitive values', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        shard: { type: 'integer', 'x-mcp-header': 'Shard' },
        gone: { type: 'string', 'x-mcp-header': 'Gone' },
        none: { type: 'string', 'x-mcp-header': 'None' },
        query: { type: 'string' },
        scope: { type: 'object', properties: { team: { type: 'string', 'x-mcp-header': 'Team' } } },
      },
    };
    const args = { region: 'eu', shard: 3, none: null, query: 'x', scope: { team: 'Zoë' } };
    expect(paramHeaders(schema, args)).toEqual({
      'mcp-param-region': 'eu',
      'mcp-param-shard': '3',
      'mcp-param-team': `=?base64?${Buffer.from('Zoë').toString('base64')}?=`,
    });
  });
});
