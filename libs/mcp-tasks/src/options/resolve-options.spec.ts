import { describe, expect, it } from '@jest/globals';
import { MemoryTaskStore } from '../store/memory/memory-task.store.js';
import { resolveOptions } from './resolve-options.js';

const server = { name: 's', version: '1' };

describe('resolveOptions', () => {
  it('applies every default', () => {
    const o = resolveOptions({ server });
    expect(o).toMatchObject({
      path: '/mcp',
      ttl: 3_600_000,
      pollInterval: 1_000,
      maxPerPrincipal: 100,
      maxTasks: Infinity,
      tasks: true,
      requestStateTtl: 600_000,
      questionTimeout: 300_000,
      upstreams: [],
    });
    expect(o.store).toBeInstanceOf(MemoryTaskStore);
    expect(o.requestStateSecret.length).toBe(32);
  });

  it('keeps given values, trims a trailing slash and accepts Infinity and ttl null', () => {
    const o = resolveOptions({
      server,
      path: '/api/mcp/',
      maxPerPrincipal: Infinity,
      ttl: null,
      tasks: false,
      requestStateSecret: 'x'.repeat(16),
    });
    expect(o).toMatchObject({ path: '/api/mcp', maxPerPrincipal: Infinity, ttl: null, tasks: false });
    expect(o.requestStateSecret.toString()).toBe('x'.repeat(16));
  });

  it('takes a ttl past the longest timer (it is waited in steps)', () => {
    expect(resolveOptions({ server, ttl: 2 ** 31 + 1 }).ttl).toBe(2 ** 31 + 1);
    expect(resolveOptions({ server, ttl: 1e15 }).ttl).toBe(1e15);
  });

  it.each([
    [{}, /server.name and server.version/],
    [{ server: { name: '', version: '1' } }, /server.name/],
    [{ server, path: 'mcp' }, /path must start with "\/"/],
    [{ server, ttl: 0 }, /ttl must be an integer number of ms from 1 to 1000000000000000, or null \(got 0\)/],
    [{ server, ttl: Infinity }, /ttl must be an integer number of ms from 1 to 1000000000000000, or null/],
    [{ server, ttl: 1e15 + 1 }, /ttl must be an integer number of ms from 1 to 1000000000000000/],
    [{ server, pollInterval: 1.5 }, /pollInterval/],
    [{ server, pollInterval: 2 ** 31 }, /pollInterval must be an integer number of ms from 1 to 2147483647 \(got 2/],
    [{ server, lease: 2 ** 31 }, /lease must be an integer number of ms from 1 to 2147483647 \(got 2147483648\)/],
    [{ server, maxPerPrincipal: -1 }, /maxPerPrincipal must be a positive integer or Infinity/],
    [{ server, maxTasks: 0 }, /maxTasks/],
    [{ server, tasks: 'yes' }, /tasks must be a boolean/],
    [{ server, subject: 'me' }, /subject must be a function/],
    [{ server, principal: () => 'me' }, /"principal" was renamed "subject": subject: \(req\) => string/],
    [{ server, scope: () => 'me' }, /"scope" was renamed "subject": subject: \(req\) => string/],
    [{ server, store: {} }, /store must implement TaskStore/],
    [{ server, requestStateSecret: 'short' }, /at least 16 characters/],
    [{ server, requestStateTtl: -5 }, /requestStateTtl/],
    [{ server, questionTimeout: '5m' }, /questionTimeout must be an integer number of ms/],
    [{ server, guards: { ownership: 'mine' } }, /guards must be \{ scopes\?, ownership\? \}, each a guard class/],
    [{ server, allowedHosts: 'localhost' }, /allowedHosts must be an array of strings/],
    [{ server, allowedOrigins: [1] }, /allowedOrigins must be an array of strings/],
    [{ server, fastPath: 'yes' }, /fastPath must be a boolean/],
    [{ server, upstreams: {} }, /upstreams must be an array/],
    [
      { server, upstreams: [{ name: 'a_b', url: 'http://x/mcp' }] },
      /upstreams\[0\]\.name must be letters, digits and "-"/,
    ],
    [{ server, upstreams: [{ name: 'a', url: 'ftp://x' }] }, /upstreams\[0\]\.url must be an http\(s\) URL/],
    [{ server, upstreams: [{ name: 'a', url: 'http://x', tools: 'some' }] }, /upstreams\[0\]\.tools must be/],
    [{ server, upstreams: [{ name: 'a', url: 'http://x', scopes: 'read' }] }, /upstreams\[0\]\.scopes must be/],
    [{ server, upstreams: [{ name: 'a', url: 'http://x', timeout: 0 }] }, /upstreams\[0\]\.timeout must be an integer/],
    [{ server, upstreams: [{ name: 'a', url: 'http://x', toolsTtl: 1.5 }] }, /upstreams\[0\]\.toolsTtl must be/],
    [
      { server, upstreams: [{ name: 'a', url: 'http://x', auth: { type: 'bearer' } }] },
      /auth\.token must be a non-empty/,
    ],
    [
      { server, upstreams: [{ name: 'a', url: 'http://x', auth: { type: 'exchange', token: 't' } }] },
      /upstreams\[0\]\.auth\.token must be a function of the caller's principal/,
    ],
    [
      { server, upstreams: [{ name: 'a', url: 'http://x', auth: { type: 'basic' } }] },
      /auth must be \{ type: 'none' \}/,
    ],
    [
      {
        server,
        upstreams: [
          { name: 'a', url: 'http://x' },
          { name: 'a', url: 'http://y' },
        ],
      },
      /upstreams: the name "a" is used twice/,
    ],
  ])('rejects %p', (raw, message) => {
    expect(() => resolveOptions(raw as never)).toThrow(message);
  });
});
