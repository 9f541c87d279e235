import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpResourceNotifier } from '@mcp-tasks/nestjs';
import { hsAuth } from './fixtures/auth-app.js';
import { BlockingGuard, createResourcesApp } from './fixtures/resources-app.js';
import { rpc, type RpcOptions } from './support/mcp-request.js';
import { hs256 } from './support/tokens.js';
import { PLATFORMS } from './support/platforms.js';
import { until } from './support/until.js';
import { codeOf, connectV1, type V1Connection } from './support/v1-client.js';

const urlOf = (app: INestApplication) =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);

/** A 2026-07-28 `resources/read` with its `Mcp-Name` header (the URI). */
const read = (app: INestApplication, uri: string, o: RpcOptions = {}, more: Record<string, unknown> = {}) =>
  rpc(app, 'resources/read', { uri, ...more }, { ...o, headers: { 'mcp-name': uri, ...o.headers } });

const ELICIT = { elicitation: { form: {} } };
const bearer = (scope: string) => ({ authorization: `Bearer ${hs256({ scope })}` });

describe.each(PLATFORMS)('resources: @McpResource and @McpResourceTemplate (%s)', (platform) => {
  let app: INestApplication;
  const open: V1Connection[] = [];
  const v1 = async (o: Parameters<typeof connectV1>[1] = {}) => {
    const c = await connectV1(urlOf(app), o);
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    app = await createResourcesApp({}, platform);
  });
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await app.close();
  });
  beforeEach(() => {
    BlockingGuard.seen = [];
  });

  describe('2026-07-28 (raw HTTP)', () => {
    it('server/discover advertises resources (no prompts or completions: the app has none)', async () => {
      const res = await rpc(app, 'server/discover');
      expect(res.body.result.capabilities.resources).toEqual({ subscribe: true, listChanged: true });
      expect(res.body.result.capabilities.prompts).toBeUndefined();
      expect(res.body.result.capabilities.completions).toBeUndefined();
    });

    it('lists the static resources and the templates, with cache hints', async () => {
      const list = await rpc(app, 'resources/list');
      expect(list.body.result.resources).toEqual([
        { uri: 'docs://readme', name: 'readme', title: 'Read me', mimeType: 'text/markdown' },
        { uri: 'docs://config', name: 'config', description: 'Settings as JSON' },
        { uri: 'docs://logo', name: 'logo', mimeType: 'image/png' },
        { uri: 'docs://asked', name: 'asked' },
        { uri: 'secret://plans', name: 'plans' },
      ]);
      expect(list.body.result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'public' });
      const templates = await rpc(app, 'resources/templates/list');
      expect(templates.body.result.resourceTemplates).toEqual([
        { uriTemplate: 'users://{id}/profile', name: 'profile' },
      ]);
    });

    it('reads text, JSON and a blob, each with its MIME type and a cache hint', async () => {
      const text = await read(app, 'docs://readme');
      expect(text.status).toBe(200);
      expect(text.body.result).toMatchObject({
        resultType: 'complete',
        contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Library' }],
        ttlMs: 0,
        cacheScope: 'public',
      });
      const json = await read(app, 'docs://config');
      expect(json.body.result.contents).toEqual([
        { uri: 'docs://config', mimeType: 'application/json', text: '{"shelves":3,"open":true}' },
      ]);
      const blob = await read(app, 'docs://logo');
      expect(blob.body.result.contents).toEqual([{ uri: 'docs://logo', mimeType: 'image/png', blob: 'iVBORw==' }]);
      expect(blob.body.result.ttlMs).toBe(60_000);
    });

    it('reads a template with its variables through the DTO; variables it refuses are -32602 naming them', async () => {
      const ok = await read(app, 'users://42/profile');
      expect(ok.body.result.contents).toEqual([
        { uri: 'users://42/profile', mimeType: 'application/json', text: '{"id":"42","by":"host"}' },
      ]);
      const bad = await read(app, 'users://abc/profile');
      expect(bad.body.error).toMatchObject({
        code: -32602,
        data: { uri: 'users://abc/profile', errors: ['id: must be a number string'] },
      });
    });

    it('an unknown URI is -32602 with the URI in data (SEP-2164); a uri that is no string is -32602', async () => {
      const res = await read(app, 'docs://nothing');
      expect(res.body.error).toEqual({
        code: -32602,
        message: 'Resource not found: docs://nothing',
        data: { uri: 'docs://nothing' },
      });
      const none = await rpc(app, 'resources/read', { uri: 7 }, { headers: { 'mcp-name': '7' } });
      expect(none.body.error.code).toBe(-32602);
    });

    it('asks for input as an MRTR round, and reads once answered', async () => {
      const r1 = await read(app, 'docs://asked', { caps: ELICIT });
      expect(r1.body.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { shelf: { method: 'elicitation/create', params: { message: 'Which shelf?' } } },
      });
      const answer = { shelf: { action: 'accept', content: { n: 4 } } };
      const more = { inputResponses: answer, requestState: r1.body.result.requestState };
      const r2 = await read(app, 'docs://asked', { caps: ELICIT }, more);
      expect(r2.body.result).toMatchObject({ resultType: 'complete', contents: [{ text: 'shelf 4' }] });
      // The state is bound to the URI it was issued for.
      const elsewhere = await read(app, 'docs://readme', { caps: ELICIT }, more);
      expect(elsewhere.body.error).toMatchObject({ code: -32602, message: 'Invalid requestState' });
    });

    it('without the capability, the question is refused with -32021', async () => {
      const res = await read(app, 'docs://asked');
      expect(res.body.error.code).toBe(-32021);
      expect(res.body.error.message).toMatch(/^Resource asked needs the client capability "elicitation"/);
    });

    it("the app-wide guard runs once per read (in the resource's pipeline); its refusal stops it", async () => {
      await read(app, 'docs://readme');
      await read(app, 'docs://nothing');
      expect(BlockingGuard.seen).toEqual(['resources/read docs://readme', 'resources/read']);
      const refused = await read(app, 'docs://readme', { headers: { 'x-block': '1' } });
      expect(refused.status).toBe(403);
      expect(refused.body.result).toBeUndefined();
      const unknown = await read(app, 'docs://nothing', { headers: { 'x-block': '1' } });
      expect(unknown.status).toBe(403);
    });
  });

  describe('2025-11-25 (the official v1 client)', () => {
    it('initialize advertises resources; lists and reads text, blob and a template', async () => {
      const c = await v1();
      expect(c.client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
      const { resources } = await c.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual([
        'docs://readme',
        'docs://config',
        'docs://logo',
        'docs://asked',
        'secret://plans',
      ]);
      const { resourceTemplates } = await c.client.listResourceTemplates();
      expect(resourceTemplates).toEqual([{ uriTemplate: 'users://{id}/profile', name: 'profile' }]);
      expect(await c.client.readResource({ uri: 'docs://readme' })).toEqual({
        contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Library' }],
      });
      const logo = await c.client.readResource({ uri: 'docs://logo' });
      expect(logo.contents).toEqual([{ uri: 'docs://logo', mimeType: 'image/png', blob: 'iVBORw==' }]);
      expect(logo).not.toHaveProperty('ttlMs');
      const profile = await c.client.readResource({ uri: 'users://7/profile' });
      expect(profile.contents[0]).toMatchObject({ text: '{"id":"7","by":"host"}' });
    });

    it('a refused variable is -32602, an unknown URI -32002 (the 2025 revisions)', async () => {
      const c = await v1();
      const bad = await c.client.readResource({ uri: 'users://x/profile' }).catch((e: unknown) => e);
      expect(codeOf(bad)).toBe(-32602);
      const unknown = await c.client.readResource({ uri: 'docs://nothing' }).catch((e: unknown) => e);
      expect(codeOf(unknown)).toBe(-32002);
      expect((unknown as { data?: unknown }).data).toEqual({ uri: 'docs://nothing' });
    });

    it("asks the question on the read's stream and reads with the answer", async () => {
      const c = await v1({ capabilities: { elicitation: {} } });
      const asked: string[] = [];
      c.client.setRequestHandler(ElicitRequestSchema, (r) => {
        asked.push(r.params.message);
        return { action: 'accept', content: { n: 2 } };
      });
      const res = await c.client.readResource({ uri: 'docs://asked' });
      expect(asked).toEqual(['Which shelf?']);
      expect(res.contents).toEqual([{ uri: 'docs://asked', mimeType: 'text/plain', text: 'shelf 2' }]);
    });

    it('subscribes: McpResourceNotifier reaches the session on its GET stream until it unsubscribes', async () => {
      const c = await v1();
      const updated: string[] = [];
      c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
      const notifier = app.get(McpResourceNotifier);
      expect(await c.client.subscribeResource({ uri: 'users://5/profile' })).toEqual({});
      // Once the client's GET stream is open here, the update reaches it.
      await until('the GET stream', () => notifier.updated('users://5/profile') === 1);
      await until('the notification', () => updated.length > 0);
      expect(new Set(updated)).toEqual(new Set(['users://5/profile']));
      expect(notifier.updated('docs://readme')).toBe(0);
      expect(await c.client.unsubscribeResource({ uri: 'users://5/profile' })).toEqual({});
      expect(notifier.updated('users://5/profile')).toBe(0);
      const unknown = await c.client.subscribeResource({ uri: 'docs://nothing' }).catch((e: unknown) => e);
      expect(codeOf(unknown)).toBe(-32002);
    });

    it('a client that cannot be asked gets -32600', async () => {
      const c = await v1();
      const err = await c.client.readResource({ uri: 'docs://asked' }).catch((e: unknown) => e);
      expect(codeOf(err)).toBe(-32600);
      expect((err as Error).message).toContain('Resource asked needs the client capability "elicitation"');
    });
  });
});

describe('resources with authentication: @RequiredScopes', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createResourcesApp({ auth: hsAuth });
  });
  afterAll(() => app.close());

  it('a read without the scope is 403 insufficient_scope, and the method never runs', async () => {
    const res = await read(app, 'secret://plans', { headers: bearer('files:read') });
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toMatch(/insufficient_scope", scope="files:write"/);
    expect(JSON.stringify(res.body)).not.toContain('the plans');
  });

  it('with it, the resource reads', async () => {
    const res = await read(app, 'secret://plans', { headers: bearer('files:write') });
    expect(res.body.result).toMatchObject({ contents: [{ text: 'the plans' }], cacheScope: 'private' });
  });

  it('the list shows a caller only what their scopes allow, in both eras', async () => {
    const without = await rpc(app, 'resources/list', {}, { headers: bearer('files:read') });
    expect(without.body.result.resources.map((r: { uri: string }) => r.uri)).not.toContain('secret://plans');
    expect(without.body.result.cacheScope).toBe('private');
    const withScope = await rpc(app, 'resources/list', {}, { headers: bearer('files:write') });
    expect(withScope.body.result.resources.map((r: { uri: string }) => r.uri)).toContain('secret://plans');
    const c = await connectV1(urlOf(app), { token: hs256({ scope: 'files:read' }) });
    try {
      const { resources } = await c.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['docs://readme', 'docs://config', 'docs://logo', 'docs://asked']);
      const err = await c.client.readResource({ uri: 'secret://plans' }).catch((e: unknown) => e);
      expect(String(err)).toMatch(/403|insufficient_scope|Forbidden/i);
      const sub = await c.client.subscribeResource({ uri: 'secret://plans' }).catch((e: unknown) => e);
      expect(String(sub)).toMatch(/403|insufficient_scope|Forbidden/i);
      expect(await c.client.subscribeResource({ uri: 'docs://readme' })).toEqual({});
    } finally {
      await c.close();
    }
  });
});
