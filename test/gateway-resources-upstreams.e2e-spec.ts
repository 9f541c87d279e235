import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { startLegacySdkServer, type LegacySdkServer } from './fixtures/legacy-sdk-server.js';
import { createPromptsApp } from './fixtures/prompts-app.js';
import { createResourcesApp } from './fixtures/resources-app.js';
import { rpc, type RpcOptions } from './support/mcp-request.js';
import { hs256 } from './support/tokens.js';
import { until } from './support/until.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { listen } from './support/listen.js';
import { connectV1 } from './support/v1-client.js';

type Entry = Record<string, any>;
const ELICIT = { elicitation: { form: {} } };

const urlOf = (app: INestApplication): string => {
  const { port } = app.getHttpServer().address() as { port: number };
  return `http://127.0.0.1:${port}/mcp`;
};
const read = (app: INestApplication, uri: string, params: Entry = {}, o: RpcOptions = {}) =>
  rpc(app, 'resources/read', { uri, ...params }, { ...o, headers: { 'mcp-name': uri } });
const getPrompt = (app: INestApplication, name: string, args: Entry) =>
  rpc(app, 'prompts/get', { name, arguments: args }, { headers: { 'mcp-name': name } });
const complete = (app: INestApplication, ref: Entry, argument: Entry, context?: Entry) =>
  rpc(app, 'completion/complete', { ref, argument, ...(context ? { context: { arguments: context } } : {}) });

/**
 * Upstreams of every kind behind one gateway: `old`, a 2025-era SDK server speaking 2025-06-18 only (a resource, a
 * template and a prompt, each with a completer); `notes`, a 2026-07-28 app whose template has completers; `docs`,
 * one whose resource asks a question (an MRTR round).
 */
describe('gateway: resources and prompts of 2025-era and 2026 upstreams', () => {
  let old: LegacySdkServer;
  let notes: INestApplication;
  let docs: INestApplication;
  let gateway: INestApplication;
  let url: URL;
  beforeAll(async () => {
    old = await startLegacySdkServer({ versions: ['2025-06-18'], features: true });
    notes = await createPromptsApp();
    docs = await createResourcesApp();
    gateway = await createGatewayApp([
      // A short TTL: the lists are read again every 300 ms (the stale-list test waits for two reads).
      { name: 'old', url: old.url.href, toolsTtl: 300 },
      { name: 'notes', url: urlOf(notes), auth: { type: 'bearer', token: hs256({ scope: 'notes:read plans:read' }) } },
      { name: 'docs', url: urlOf(docs) },
    ]);
    await until('every upstream listed', async () => {
      const { body } = await rpc(gateway, 'resources/templates/list');
      const uris = (body.result?.resourceTemplates ?? []).map((t: Entry) => t.uriTemplate);
      return ['old+legacy://cities/{city}', 'notes+notes://{folder}/{note}'].every((u) => uris.includes(u));
    });
    url = new URL(urlOf(gateway));
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await notes?.close();
    await docs?.close();
    await old?.close();
  });

  it('a 2025-06-18 upstream: listed, read, its prompt got, its template and prompt completed', async () => {
    const resources: Entry[] = (await rpc(gateway, 'resources/list')).body.result.resources;
    expect(resources).toContainEqual(expect.objectContaining({ uri: 'old+legacy://motd', name: 'old_motd' }));
    const prompts: Entry[] = (await rpc(gateway, 'prompts/list')).body.result.prompts;
    expect(prompts).toContainEqual(expect.objectContaining({ name: 'old_greet' }));
    const motd = await read(gateway, 'old+legacy://motd');
    expect(motd.body.result).toMatchObject({
      resultType: 'complete',
      contents: [{ uri: 'old+legacy://motd', text: 'Message of the day' }],
    });
    const city = await read(gateway, 'old+legacy://cities/rome');
    expect(city.body.result.contents).toEqual([{ uri: 'old+legacy://cities/rome', text: 'City: rome' }]);
    const got = await getPrompt(gateway, 'old_greet', { name: 'ada' });
    expect(got.body.result).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello, ada' } }],
    });
    const cities = await complete(
      gateway,
      { type: 'ref/resource', uri: 'old+legacy://cities/{city}' },
      { name: 'city', value: 'pa' },
    );
    expect(cities.body.result).toMatchObject({ resultType: 'complete', completion: { values: ['paris', 'park'] } });
    const names = await complete(gateway, { type: 'ref/prompt', name: 'old_greet' }, { name: 'name', value: 'a' });
    expect(names.body.result.completion.values).toEqual(['ada', 'alan']);
    // It speaks 2025-06-18 only: they went on the session its `initialize` opened.
    const session = old.methods.slice(old.methods.indexOf('initialize'));
    expect(session).toEqual(expect.arrayContaining(['resources/read', 'prompts/get', 'completion/complete']));
  });

  it("completes a 2026 upstream's template variable, with the context of the others", async () => {
    const ref = { type: 'ref/resource', uri: 'notes+notes://{folder}/{note}' };
    const folders = await complete(gateway, ref, { name: 'folder', value: '' });
    expect(folders.body.result).toMatchObject({ resultType: 'complete' });
    const folder: string = folders.body.result.completion.values[0];
    expect(typeof folder).toBe('string');
    const inFolder = await complete(gateway, ref, { name: 'note', value: '' }, { folder });
    expect(inFolder.body.result.completion.values.length).toBeGreaterThan(0);
    const nowhere = await complete(gateway, ref, { name: 'note', value: '' }, { folder: 'no-such-folder' });
    expect(nowhere.body.result.completion.values).toEqual([]);
  });

  it("passes a resource read's input round through, and answers it", async () => {
    const first = await read(gateway, 'docs+docs://asked', {}, { caps: ELICIT });
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { shelf: { method: 'elicitation/create' } },
      requestState: expect.any(String),
    });
    const inputResponses = { shelf: { action: 'accept', content: { n: 3 } } };
    const { requestState } = first.body.result;
    const second = await read(gateway, 'docs+docs://asked', { inputResponses, requestState }, { caps: ELICIT });
    expect(second.body.result).toMatchObject({
      resultType: 'complete',
      contents: [{ uri: 'docs+docs://asked', text: 'shelf 3' }],
    });
  });

  it('a 2025-06-18 caller (v1 SDK) reads resources and gets prompts of both eras through the gateway', async () => {
    const v1 = await connectV1(url, { protocolVersion: '2025-06-18' });
    try {
      expect(v1.transport.protocolVersion).toBe('2025-06-18');
      const motd = await v1.client.readResource({ uri: 'old+legacy://motd' });
      expect(motd.contents).toEqual([{ uri: 'old+legacy://motd', text: 'Message of the day' }]);
      const note = await v1.client.readResource({ uri: 'notes+notes://work/todo' });
      expect(note.contents[0]).toMatchObject({ uri: 'notes+notes://work/todo', text: 'work/todo' });
      const greet = await v1.client.getPrompt({ name: 'old_greet', arguments: { name: 'grace' } });
      expect(greet.messages[0]?.content).toEqual({ type: 'text', text: 'Hello, grace' });
      const listed = await v1.client.listPrompts();
      const review = listed.prompts.find((p) => p.name.startsWith('notes_'));
      expect(review).toBeDefined();
    } finally {
      await v1.close();
    }
  });

  it("keeps an upstream's last lists while reading them fails", async () => {
    const listsRead = () => old.methods.filter((m) => m === 'prompts/list').length;
    old.failLists = true;
    try {
      const before = listsRead();
      // Three more reads refused, 300 ms apart: the first one's refresh is over by the third's.
      await until('three failed list reads', () => listsRead() >= before + 3, 30_000);
      const resources: Entry[] = (await rpc(gateway, 'resources/list')).body.result.resources;
      expect(resources.map((r) => r.uri)).toContain('old+legacy://motd');
      const prompts: Entry[] = (await rpc(gateway, 'prompts/list')).body.result.prompts;
      expect(prompts.map((p) => p.name)).toContain('old_greet');
      const templates: Entry[] = (await rpc(gateway, 'resources/templates/list')).body.result.resourceTemplates;
      expect(templates.map((t) => t.uriTemplate)).toContain('old+legacy://cities/{city}');
    } finally {
      old.failLists = false;
    }
  });

  it("relays an upstream's list changes to listeners of both eras; advertises listChanged, not subscribe", async () => {
    const discover = await rpc(gateway, 'server/discover');
    expect(discover.body.result.capabilities.resources).toEqual({ listChanged: true });
    expect(discover.body.result.capabilities.prompts).toEqual({ listChanged: true });
    const stream = await listen(gateway, { resourcesListChanged: true, promptsListChanged: true }, { id: 'lists' });
    const v1 = await connectV1(url);
    try {
      // Its 2025-era initialize likewise: no resources/subscribe for resources that are all upstream.
      expect(v1.client.getServerCapabilities()?.resources).toEqual({ listChanged: true });
      expect(stream.frames[0]?.params?.notifications).toEqual({ resourcesListChanged: true, promptsListChanged: true });
      let heard = 0;
      v1.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void heard++);
      old.addFeature('news');
      await stream.next((f) => f.method === 'notifications/resources/list_changed', 30_000);
      await stream.next((f) => f.method === 'notifications/prompts/list_changed', 30_000);
      // The v1 client's GET stream may open after that change: another one each second until it hears one.
      let more = 0;
      const probe = () => {
        if (heard === 0) old.addFeature(`more-${more++}`);
        return heard > 0;
      };
      await until('the 2025-era session told', probe, 30_000, 1_000);
      const resources: Entry[] = (await rpc(gateway, 'resources/list')).body.result.resources;
      expect(resources.map((r) => r.uri)).toContain('old+legacy://news');
    } finally {
      stream.close();
      await v1.close();
    }
  });
});
