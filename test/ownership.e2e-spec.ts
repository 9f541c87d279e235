import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { MemoryTaskStore } from '@mcp-tasks/nestjs';
import { createAuthApp, hsAuth } from './fixtures/auth-app.js';
import { listen } from './support/listen.js';
import { call, rpc, TASKS } from './support/mcp-request.js';
import { PLATFORMS } from './support/platforms.js';
import { hs256, RESOURCE } from './support/tokens.js';

const RESOURCE_B = 'http://127.0.0.1/mcp-b';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const OWNER = { sub: 'alice', azp: 'client-1', scope: 'files:read' };

/**
 * Everyone but the owner must get exactly the answer for a task that does not exist: same status,
 * same headers that matter, same bytes.
 */
describe.each(PLATFORMS)('on %s', (platform) => {
  const authApp = (
    options: Parameters<typeof createAuthApp>[0] = {},
    imports: unknown[] = [],
    more: Parameters<typeof createAuthApp>[2] = [],
  ) => createAuthApp(options, imports, more, platform);

  describe('task ownership: (subject, server, client, resource)', () => {
    let app: INestApplication;
    let taskId: string;
    const store = new MemoryTaskStore();
    beforeAll(async () => {
      app = await authApp(
        { store, auth: { ...hsAuth, audience: [RESOURCE, RESOURCE_B] } },
        [],
        [
          {
            server: { name: 'files-2', version: '1' },
            path: '/mcp2',
            store,
            auth: { ...hsAuth, audience: [RESOURCE, RESOURCE_B] },
          },
        ],
      );
      const created = await call(app, 'read_file', { ms: 60_000 }, { caps: TASKS, headers: bearer(hs256(OWNER)) });
      taskId = created.body.result.taskId;
      expect(typeof taskId).toBe('string');
    });
    afterAll(() => app.close());

    const others: Array<[string, Record<string, unknown>, string?]> = [
      ['another subject', { ...OWNER, sub: 'mallory' }],
      ['the same subject through another OAuth client', { ...OWNER, azp: 'client-2' }],
      ['the same subject for another resource', { ...OWNER, aud: RESOURCE_B }],
      ['the same subject on another server (second module instance, shared store)', OWNER, '/mcp2'],
    ];

    const METHODS: Array<[string, Record<string, unknown>]> = [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: { ok: { action: 'accept' } } }],
      ['tasks/cancel', {}],
    ];

    for (const [label, claims, path] of others) {
      describe(label, () => {
        for (const [method, extra] of METHODS) {
          it(`${method} is answered byte-for-byte like an unknown task`, async () => {
            const headers = bearer(hs256(claims));
            const foreign = await rpc(app, method, { taskId, ...extra }, { caps: TASKS, headers, id: 'same', path });
            const unknown = await rpc(
              app,
              method,
              { taskId: 'X'.repeat(24), ...extra },
              { caps: TASKS, headers, id: 'same', path },
            );
            expect(foreign.status).toBe(unknown.status);
            expect(foreign.text).toBe(unknown.text);
            expect(foreign.headers['content-type']).toBe(unknown.headers['content-type']);
            expect(foreign.headers['www-authenticate']).toBe(unknown.headers['www-authenticate']);
            expect(JSON.parse(foreign.text)).toEqual({
              jsonrpc: '2.0',
              id: 'same',
              error: { code: -32602, message: 'Task not found' },
            });
          });
        }

        it('subscriptions/listen drops it exactly like an unknown id', async () => {
          const headers = bearer(hs256(claims));
          const a = await listen(app, { taskIds: [taskId] }, { caps: TASKS, headers, id: 'L', path });
          const b = await listen(app, { taskIds: ['X'.repeat(24)] }, { caps: TASKS, headers, id: 'L', path });
          const ackA = await a.next((f) => f.method === 'notifications/subscriptions/acknowledged');
          const ackB = await b.next((f) => f.method === 'notifications/subscriptions/acknowledged');
          expect(JSON.stringify(ackA)).toBe(JSON.stringify(ackB));
          expect(ackA.params.notifications.taskIds).toEqual([]);
          a.close();
          b.close();
        });
      });
    }

    it('the owner is served by all of them (sanity)', async () => {
      const res = await rpc(app, 'tasks/get', { taskId }, { caps: TASKS, headers: bearer(hs256(OWNER)) });
      expect(res.body.result.status).toBe('working');
      const s = await listen(app, { taskIds: [taskId] }, { caps: TASKS, headers: bearer(hs256(OWNER)) });
      expect(
        (await s.next((f) => f.method === 'notifications/subscriptions/acknowledged')).params.notifications.taskIds,
      ).toEqual([taskId]);
      s.close();
    });
  });
});

describe('listening to an owned task without its scopes', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createAuthApp();
  });
  afterAll(() => app.close());

  it('is answered like tasks/get: 403 insufficient_scope naming the scopes (foreign ids stay dropped)', async () => {
    const writer = bearer(hs256({ ...OWNER, scope: 'files:read files:write' }));
    const taskId = (await call(app, 'write_file', { ms: 60_000 }, { caps: TASKS, headers: writer })).body.result
      .taskId as string;
    const reader = bearer(hs256(OWNER));
    const get = await rpc(app, 'tasks/get', { taskId }, { caps: TASKS, headers: reader, id: 'g' });
    expect(get.status).toBe(403);
    const foreign = (
      await call(app, 'read_file', { ms: 60_000 }, { caps: TASKS, headers: bearer(hs256({ ...OWNER, sub: 'bob' })) })
    ).body.result.taskId as string;
    const s = await listen(app, { taskIds: [foreign, taskId] }, { caps: TASKS, headers: reader, id: 'L' });
    expect(s.status).toBe(403);
    expect(s.frames).toEqual([{ jsonrpc: '2.0', id: 'L', error: get.body.error }]);
    expect(s.headers['www-authenticate']).toBe(get.headers['www-authenticate']);
    expect(get.headers['www-authenticate']).toMatch(/insufficient_scope", scope="files:read files:write"/);
    s.close();
    // The foreign task alone is still just dropped.
    const other = await listen(app, { taskIds: [foreign] }, { caps: TASKS, headers: reader });
    const ack = await other.next((f) => f.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params.notifications.taskIds).toEqual([]);
    other.close();
  });
});
