import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpPrompt, McpPromptNotifier, McpResourceNotifier, McpTasksModule } from '@mcp-tasks/nestjs';
import type { AddressInfo } from 'node:net';
import { hsAuth } from './fixtures/auth-app.js';
import { createResourcesApp, Library } from './fixtures/resources-app.js';
import { listen, type ListenStream } from './support/listen.js';
import { rpc } from './support/mcp-request.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { hs256 } from './support/tokens.js';
import { until } from './support/until.js';
import { connectV1, type V1Connection } from './support/v1-client.js';

@Injectable()
class Greetings {
  @McpPrompt({ name: 'greet' })
  greet(): string {
    return 'Hello';
  }
}

/** One instance: the resources fixture and a prompt, on the PostgreSQL bus shared with the other. */
async function instance(url: string): Promise<INestApplication> {
  const ref = await Test.createTestingModule({
    imports: [
      McpTasksModule.forRoot({ server: { name: 'changes', version: '1' }, bus: { type: 'postgres', connection: url } }),
    ],
    providers: [Library, Greetings],
  }).compile();
  const app = ref.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return app;
}

const urlOf = (app: INestApplication): URL =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/mcp`);
const SUB = 'io.modelcontextprotocol/subscriptionId';
const methodIs = (m: string) => (f: Record<string, any>) => f.method === m;
const updatedUri = (uri: string) => (f: Record<string, any>) =>
  f.method === 'notifications/resources/updated' && f.params?.uri === uri;

describe('resource and prompt changes across two instances on one bus', () => {
  let pg: TestPostgres;
  let a: INestApplication;
  let b: INestApplication;
  const streams: ListenStream[] = [];
  const v1s: V1Connection[] = [];
  const onB = async (notifications: Record<string, unknown>, id: string) => {
    const s = await listen(b, notifications, { id });
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    pg = await startPostgres();
    a = await instance(pg.url);
    b = await instance(pg.url);
  }, 60_000);
  afterAll(async () => {
    for (const s of streams) s.close();
    for (const c of v1s) await c.close().catch(() => undefined);
    await a?.close();
    await b?.close();
    await pg?.stop();
  });

  it('server/discover advertises listChanged for resources and prompts, and subscribe', async () => {
    const res = await rpc(a, 'server/discover', {});
    const caps = res.body.result.capabilities;
    expect(caps.resources).toEqual({ subscribe: true, listChanged: true });
    expect(caps.prompts).toEqual({ listChanged: true });
  });

  it('list changes announced on A reach a listener on B that asked for them, with its subscription id', async () => {
    const s = await onB({ resourcesListChanged: true, promptsListChanged: true }, 'lists');
    const ack = await s.next(methodIs('notifications/subscriptions/acknowledged'));
    expect(ack.params).toEqual({
      _meta: { [SUB]: 'lists' },
      notifications: { resourcesListChanged: true, promptsListChanged: true },
    });
    const only = await onB({ promptsListChanged: true }, 'prompts-only');
    await only.next(methodIs('notifications/subscriptions/acknowledged'));
    a.get(McpResourceNotifier).listChanged();
    a.get(McpPromptNotifier).listChanged();
    const r = await s.next(methodIs('notifications/resources/list_changed'), 10_000);
    expect(r.params).toEqual({ _meta: { [SUB]: 'lists' } });
    await s.next(methodIs('notifications/prompts/list_changed'), 10_000);
    await only.next(methodIs('notifications/prompts/list_changed'), 10_000);
    // Sent in order on one bus: the resources change came before the prompts one, and it was not asked for here.
    expect(only.frames.filter(methodIs('notifications/resources/list_changed'))).toEqual([]);
  });

  it('a resource update reaches only the listeners that named its URI; a URI not served is dropped', async () => {
    const one = await onB({ resourceSubscriptions: ['users://5/profile', 'docs://nothing'] }, 'one');
    const ack = await one.next(methodIs('notifications/subscriptions/acknowledged'));
    expect(ack.params.notifications).toEqual({ resourceSubscriptions: ['users://5/profile'] });
    const two = await onB({ resourceSubscriptions: ['docs://readme'] }, 'two');
    await two.next(methodIs('notifications/subscriptions/acknowledged'));
    const notifier = a.get(McpResourceNotifier);
    notifier.updated('users://5/profile');
    notifier.updated('docs://readme');
    const got = await one.next(updatedUri('users://5/profile'), 10_000);
    expect(got.params).toEqual({ uri: 'users://5/profile', _meta: { [SUB]: 'one' } });
    await two.next(updatedUri('docs://readme'), 10_000);
    // Delivered in publishing order: had the first update leaked to `two`, it would be there by now.
    expect(two.frames.filter(updatedUri('users://5/profile'))).toEqual([]);
    notifier.updated('users://5/profile');
    await one.next(updatedUri('users://5/profile'), 10_000, one.frames.indexOf(got) + 1);
    expect(one.frames.filter(updatedUri('docs://readme'))).toEqual([]);
  });

  it('a listen asking for nothing the server has is acknowledged empty and answered', async () => {
    const s = await onB({ resourceSubscriptions: ['docs://nothing'] }, 'empty');
    const ack = await s.next(methodIs('notifications/subscriptions/acknowledged'));
    expect(ack.params.notifications).toEqual({});
    const done = await s.next((f) => f.id === 'empty');
    expect(done.result).toEqual({ resultType: 'complete', _meta: { [SUB]: 'empty' } });
  });

  it('a 2025-11-25 session on B gets list_changed and its subscribed updates on its GET stream', async () => {
    const c = await connectV1(urlOf(b));
    v1s.push(c);
    const seen: string[] = [];
    c.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.push('resources'));
    c.client.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.push('prompts'));
    c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(n.params.uri));
    expect(c.client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
    await c.client.subscribeResource({ uri: 'users://7/profile' });
    // The GET stream opens after connect: announce until it hears.
    await until(
      'prompts list_changed',
      () => (a.get(McpPromptNotifier).listChanged(), seen.includes('prompts')),
      20_000,
      200,
    );
    a.get(McpResourceNotifier).updated('docs://readme');
    a.get(McpResourceNotifier).listChanged();
    a.get(McpResourceNotifier).updated('users://7/profile');
    await until('the update', () => seen.includes('users://7/profile'), 10_000);
    expect(seen).toContain('resources');
    expect(seen).not.toContain('docs://readme');
  });
});

describe('resourceSubscriptions with authentication', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createResourcesApp({ auth: hsAuth });
  });
  afterAll(() => app.close());

  it('keeps only the URIs the caller may read (secret://plans needs files:write)', async () => {
    const uris = ['secret://plans', 'docs://readme'];
    const asked = async (scope: string, id: string) => {
      const headers = { authorization: `Bearer ${hs256({ scope })}` };
      const s = await listen(app, { resourceSubscriptions: uris }, { id, headers });
      const ack = await s.next(methodIs('notifications/subscriptions/acknowledged'));
      s.close();
      return ack.params.notifications;
    };
    expect(await asked('files:read', 'reader')).toEqual({ resourceSubscriptions: ['docs://readme'] });
    expect(await asked('files:read files:write', 'writer')).toEqual({ resourceSubscriptions: uris });
  });
});
