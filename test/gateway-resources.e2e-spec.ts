import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { startSdkUpstream, type SdkUpstreamServer } from './fixtures/sdk-upstream-server.js';
import { startDemoProcess, type DemoProcess } from './support/demo-process.js';
import { rpc, type RpcOptions } from './support/mcp-request.js';
import { hs256, ISSUER, RESOURCE, SECRET } from './support/tokens.js';
import { until } from './support/until.js';
import { connectV1 } from './support/v1-client.js';

type Entry = Record<string, any>;
const ELICIT = { elicitation: { form: {} } };
const auth = { resource: RESOURCE, authorizationServers: [ISSUER], issuer: ISSUER, secretOrKey: SECRET };

const read = (app: INestApplication, uri: string, o: RpcOptions = {}) =>
  rpc(app, 'resources/read', { uri }, { ...o, headers: { 'mcp-name': uri, ...o.headers } });
const getPrompt = (app: INestApplication, params: Record<string, unknown>, o: RpcOptions = {}) =>
  rpc(app, 'prompts/get', params, { ...o, headers: { 'mcp-name': params.name as string, ...o.headers } });
const bearer = (token: string): RpcOptions => ({ headers: { authorization: `Bearer ${token}` } });

/** The built demo (its conformance fixtures: resources, a template, prompts) as upstream `upstream`. */
describe('gateway: upstream resources and prompts', () => {
  let demo: DemoProcess;
  let sdk: SdkUpstreamServer;
  let gateway: INestApplication;
  let url: URL;
  beforeAll(async () => {
    demo = await startDemoProcess({});
    sdk = await startSdkUpstream();
    // `sdk` serves tools only: it contributes nothing to these lists.
    gateway = await createGatewayApp([
      { name: 'upstream', url: demo.url },
      { name: 'sdk', url: sdk.url.href },
    ]);
    await until('the upstream prompts listed', async () => {
      const { body } = await rpc(gateway, 'prompts/list');
      return body.result?.prompts?.some((p: Entry) => p.name === 'upstream_test_simple_prompt');
    });
    const { port } = gateway.getHttpServer().address() as { port: number };
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await sdk?.close();
    await demo?.stop();
  });

  it('lists them after its own, URIs as <upstream>+<uri>, names prefixed; advertises the capabilities', async () => {
    const resources: Entry[] = (await rpc(gateway, 'resources/list')).body.result.resources;
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: 'upstream+test://static-text', name: 'upstream_static-text' }),
    );
    expect(resources.every((r) => r.uri.startsWith('upstream+'))).toBe(true);
    const templates: Entry[] = (await rpc(gateway, 'resources/templates/list')).body.result.resourceTemplates;
    expect(templates).toContainEqual(
      expect.objectContaining({ uriTemplate: 'upstream+test://template/{id}/data', name: 'upstream_template-data' }),
    );
    const prompts: Entry[] = (await rpc(gateway, 'prompts/list')).body.result.prompts;
    const withArgs = prompts.find((p) => p.name === 'upstream_test_prompt_with_arguments');
    expect(withArgs?.arguments).toEqual([
      expect.objectContaining({ name: 'arg1', required: true }),
      expect.objectContaining({ name: 'arg2', required: true }),
    ]);
    expect(prompts.some((p) => p.name.startsWith('sdk_'))).toBe(false);
    const discover = await rpc(gateway, 'server/discover');
    expect(discover.body.result.capabilities).toMatchObject({ resources: {}, prompts: {} });
  });

  it('reads a resource and a template URI upstream, the contents under the served URI', async () => {
    const text = await read(gateway, 'upstream+test://static-text');
    expect(text.body.result).toMatchObject({
      resultType: 'complete',
      contents: [{ uri: 'upstream+test://static-text' }],
    });
    expect(typeof text.body.result.contents[0].text).toBe('string');
    const templated = await read(gateway, 'upstream+test://template/42/data');
    expect(templated.body.result.contents).toEqual([
      expect.objectContaining({ uri: 'upstream+test://template/42/data' }),
    ]);
    expect(templated.body.result.contents[0].text).toContain('42');
  });

  it('an unknown upstream URI: the upstream refusal; an upstream without resources: not found here', async () => {
    const unknown = await read(gateway, 'upstream+test://no-such-thing');
    expect(unknown.body.error).toMatchObject({ code: -32602 });
    const none = await read(gateway, 'sdk+test://static-text');
    expect(none.body.error).toMatchObject({ code: -32602, data: { uri: 'sdk+test://static-text' } });
    const prompt = await getPrompt(gateway, { name: 'sdk_anything' });
    expect(prompt.body.error).toMatchObject({ code: -32602 });
  });

  it('gets a prompt with arguments upstream; the upstream checks them', async () => {
    const got = await getPrompt(gateway, {
      name: 'upstream_test_prompt_with_arguments',
      arguments: { arg1: 'a', arg2: 'b' },
    });
    expect(got.body.result).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } }],
    });
    const missing = await getPrompt(gateway, { name: 'upstream_test_prompt_with_arguments', arguments: { arg1: 'a' } });
    expect(missing.body.error).toMatchObject({ code: -32602 });
  });

  it('completes an upstream prompt argument upstream; advertises completions', async () => {
    const ref = { type: 'ref/prompt', name: 'upstream_test_prompt_with_arguments' };
    const done = await rpc(gateway, 'completion/complete', { ref, argument: { name: 'arg1', value: 'pa' } });
    expect(done.body.result).toMatchObject({
      resultType: 'complete',
      completion: { values: ['paris', 'park', 'party'] },
    });
    const discover = await rpc(gateway, 'server/discover');
    expect(discover.body.result.capabilities).toMatchObject({ completions: {} });
  });

  it("passes the upstream's input round through, its requestState sealed in ours", async () => {
    const name = 'upstream_test_input_required_result_prompt';
    const first = await getPrompt(gateway, { name }, { caps: ELICIT });
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_context: { method: 'elicitation/create' } },
      requestState: expect.any(String),
    });
    const requestState: string = first.body.result.requestState;
    const inputResponses = { user_context: { action: 'accept', content: { context: 'via gateway' } } };
    const tampered = await getPrompt(
      gateway,
      { name, inputResponses, requestState: `x${requestState}` },
      { caps: ELICIT },
    );
    expect(tampered.body.error).toBeDefined();
    const second = await getPrompt(gateway, { name, inputResponses, requestState }, { caps: ELICIT });
    expect(second.body.result).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'Use this context: via gateway' } }],
    });
  });

  it('a 2025-era client (v1 SDK) lists, reads, gets prompts, answers an upstream question on its stream', async () => {
    const v1 = await connectV1(url, { capabilities: { elicitation: {} } });
    try {
      const { client } = v1;
      const listed = await client.listResources();
      expect(listed.resources.map((r) => r.uri)).toContain('upstream+test://static-text');
      const contents = await client.readResource({ uri: 'upstream+test://template/7/data' });
      expect(contents.contents[0]).toMatchObject({ uri: 'upstream+test://template/7/data' });
      const got = await client.getPrompt({
        name: 'upstream_test_prompt_with_arguments',
        arguments: { arg1: 'x', arg2: 'y' },
      });
      expect(got.messages[0]?.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='x', arg2='y'" });
      const completed = await client.complete({
        ref: { type: 'ref/prompt', name: 'upstream_test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'test' },
      });
      expect(completed.completion.values).toEqual(['test', 'testing', 'tested']);
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { context: 'from v1' } }));
      const asked = await client.getPrompt({ name: 'upstream_test_input_required_result_prompt' });
      expect(asked.messages[0]?.content).toEqual({ type: 'text', text: 'Use this context: from v1' });
    } finally {
      await v1.close();
    }
  });

  it('scopes: listed only to callers who have them, read and get refused with 403 otherwise', async () => {
    const scoped = await createGatewayApp([{ name: 'upstream', url: demo.url, scopes: ['up:read'] }], { auth });
    try {
      const allowed = bearer(hs256({ scope: 'up:read' }));
      const other = bearer(hs256({ scope: 'other' }));
      await until('listed', async () => {
        const { body } = await rpc(scoped, 'resources/list', {}, allowed);
        return body.result?.resources?.length > 0;
      });
      const hidden = await rpc(scoped, 'resources/list', {}, other);
      expect(hidden.body.result.resources).toEqual([]);
      const hiddenPrompts = await rpc(scoped, 'prompts/list', {}, other);
      expect(hiddenPrompts.body.result.prompts).toEqual([]);
      const refused = await read(scoped, 'upstream+test://static-text', other);
      expect(refused.status).toBe(403);
      expect(refused.headers['www-authenticate']).toContain('scope="up:read"');
      const refusedPrompt = await getPrompt(scoped, { name: 'upstream_test_simple_prompt' }, other);
      expect(refusedPrompt.status).toBe(403);
      const ok = await read(scoped, 'upstream+test://static-text', allowed);
      expect(ok.body.result.contents[0].uri).toBe('upstream+test://static-text');
      // With authentication here, what a cache keeps is for this caller only.
      expect(ok.body.result.cacheScope).toBe('private');
    } finally {
      await scoped.close();
    }
  });
});
