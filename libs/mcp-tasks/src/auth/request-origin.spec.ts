import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { requestOrigin } from './request-origin.js';

/** A request with these headers that reached the server on `localAddress` (TLS when `encrypted`). */
const req = (headers: Record<string, string>, localAddress = '127.0.0.1', encrypted = false): IncomingMessage =>
  ({ headers, socket: { localAddress, encrypted } }) as never;

describe('requestOrigin: the origin a resource may be taken from', () => {
  it('on loopback, a localhost name (IPv6 too), normalised as a URL writes it', () => {
    expect(requestOrigin(req({ host: 'LOCALHOST:80' }), undefined, false)).toEqual({ origin: 'http://localhost' });
    expect(requestOrigin(req({ host: '[::1]:3000' }, '::1'), undefined, false)).toEqual({
      origin: 'http://[::1]:3000',
    });
    expect(requestOrigin(req({ host: 'localhost' }, '127.0.0.1', true), undefined, false)).toEqual({
      origin: 'https://localhost',
    });
  });

  it('beyond loopback without allowedHosts: none, as a configuration to fix', () => {
    expect(requestOrigin(req({ host: 'localhost' }, '192.0.2.2'), undefined, false)).toMatchObject({
      unconfigured: true,
    });
  });

  it.each([
    ['no Host', {}],
    ['user info', { host: 'someone@localhost' }],
    ['a query', { host: 'localhost?x' }],
    ['a backslash path', { host: 'localhost\\other' }],
    ['an unparsable host', { host: 'local host' }],
  ])('%s → refused, not as a configuration problem', (_label, headers) => {
    const outcome = requestOrigin(req(headers), undefined, false);
    expect(outcome).toHaveProperty('refused');
    expect(outcome).not.toHaveProperty('unconfigured');
  });

  it('forwarded headers count only with trustProxy, their first value, and the scheme must be http(s)', () => {
    const headers = {
      host: 'localhost',
      'x-forwarded-host': 'mcp.example, proxy.internal',
      'x-forwarded-proto': 'HTTPS',
    };
    expect(requestOrigin(req(headers), ['mcp.example'], true)).toEqual({ origin: 'https://mcp.example' });
    expect(requestOrigin(req(headers), undefined, false)).toEqual({ origin: 'http://localhost' });
    const odd = { ...headers, 'x-forwarded-proto': 'javascript' };
    expect(requestOrigin(req(odd), ['mcp.example'], true)).toMatchObject({ refused: expect.stringMatching(/Proto/) });
  });
});
