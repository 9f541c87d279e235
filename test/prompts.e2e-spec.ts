import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createPromptsApp, startWithCompleter } from './fixtures/prompts-app.js';
import { rpc, type RpcOptions } from './support/mcp-request.js';
import { PLATFORMS } from './support/platforms.js';
import { hs256 } from './support/tokens.js';
import { codeOf, connectV1 } from './support/v1-client.js';

const urlOf = (app: INestApplication) =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);

const PLAIN = hs256({ scope: '' });
const PLANNER = hs256({ scope: 'plans:read' });
const READER = hs256({ scope: 'notes:read' });
const ELICIT = { elicitation: { form: {} } };

const text = (t: string) => ({ type: 'text', text: t });

describe.each(PLATFORMS)('prompts and completions (%s)', (platform) => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createPromptsApp(platform);
  });
  afterAll(() => app.close());

  describe('2026-07-28 (raw HTTP)', () => {
    const as = (token: string, o: RpcOptions = {}): RpcOptions => ({
      ...o,
      headers: { authorization: `Bearer ${token}`, ...o.headers },
    });
    const get = (name: string, args?: Record<string, unknown>, o: RpcOptions = {}, token = PLAIN) =>
      rpc(app, 'prompts/get', { name, ...(args ? { arguments: args } : {}) }, as(token, mcpName(name, o)));
    const mcpName = (name: string, o: RpcOptions): RpcOptions => ({
      ...o,
      headers: { 'mcp-name': name, ...o.headers },
    });
    const complete = (params: Record<string, unknown>, token = PLAIN, o: RpcOptions = {}) =>
      rpc(app, 'completion/complete', params, as(token, o));

    it('server/discover advertises prompts and completions', async () => {
      const res = await rpc(app, 'server/discover', {}, as(PLAIN));
      expect(res.body.result.capabilities).toMatchObject({ prompts: {}, completions: {} });
    });

    it('prompts/list: each prompt with its DTO as arguments; one needing a scope only for who has it', async () => {
      const plain = await rpc(app, 'prompts/list', {}, as(PLAIN));
      expect(plain.body.result.prompts.map((p: { name: string }) => p.name)).toEqual([
        'review',
        'hello',
        'shout',
        'ask_context',
        'broken',
      ]);
      expect(plain.body.result.prompts[0]).toEqual({
        name: 'review',
        title: 'Code review',
        description: 'Reviews code',
        arguments: [
          { name: 'code', description: 'The code to review', required: true },
          { name: 'language', required: false },
        ],
      });
      expect(plain.body.result.cacheScope).toBe('private');
      const planner = await rpc(app, 'prompts/list', {}, as(PLANNER));
      expect(planner.body.result.prompts.map((p: { name: string }) => p.name)).toContain('secret_plan');
    });

    it('prompts/get with arguments: the messages the method made, complete', async () => {
      const res = await get('review', { code: 'x = 1', language: 'python' });
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({
        resultType: 'complete',
        description: 'Reviews code',
        messages: [
          { role: 'user', content: text('Review this python:\nx = 1') },
          { role: 'assistant', content: text('Looking at it.') },
        ],
      });
    });

    it('a string is one user message; an interceptor wraps the method', async () => {
      expect((await get('hello')).body.result.messages).toEqual([{ role: 'user', content: text('Hello there') }]);
      expect((await get('shout')).body.result.messages).toEqual([{ role: 'user', content: text('QUIET WORDS!') }]);
    });

    it('arguments the DTO refuses: -32602 naming each failing property', async () => {
      const res = await get('review', { code: 'x', language: 'cobol' });
      expect(res.body.error).toMatchObject({
        code: -32602,
        data: {
          errors: [
            'code: must be longer than or equal to 3 characters',
            expect.stringMatching(/^language: must be one of the following values: python/),
          ],
        },
      });
      expect((await get('review', {})).body.error).toMatchObject({
        code: -32602,
        data: { errors: ['code: must be a string'] },
      });
      expect((await get('review', { code: 42 })).body.error.code).toBe(-32602);
    });

    it('an unknown prompt is -32602; a method returning what is no message -32603', async () => {
      const unknown = await get('nope');
      expect(unknown.body.error).toEqual({ code: -32602, message: 'Unknown prompt: nope' });
      expect((await get('broken')).body.error).toEqual({ code: -32603, message: 'Internal error' });
    });

    it('@RequiredScopes: 403 insufficient_scope before arguments are read; with the scope, the prompt', async () => {
      for (const args of [{ topic: 'launch' }, { topic: 7 }]) {
        const refused = await get('secret_plan', args);
        expect(refused.status).toBe(403);
        expect(refused.headers['www-authenticate']).toMatch(/error="insufficient_scope", scope="plans:read"/);
        expect(refused.text).not.toMatch(/topic/);
      }
      const ok = await get('secret_plan', { topic: 'launch' }, {}, PLANNER);
      expect(ok.body.result.messages).toEqual([{ role: 'user', content: text('The plan for launch') }]);
    });

    it('an app-wide guard refuses prompts/get and completion/complete like any MCP request', async () => {
      const deny = { headers: { 'x-deny': '1' } };
      const refused = await get('hello', undefined, deny);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: -32600, message: 'Forbidden resource' });
      const ref = { type: 'ref/prompt', name: 'review' };
      const completion = await complete({ ref, argument: { name: 'language', value: 'p' } }, PLAIN, deny);
      expect(completion.status).toBe(403);
    });

    it('Mcp-Name must repeat the prompt name', async () => {
      const res = await get('hello', undefined, { headers: { 'mcp-name': 'review' } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32020);
    });

    describe('an input round on prompts/get', () => {
      it('asks with input_required, then answers the retried request with the answer and requestState', async () => {
        const first = await get('ask_context', undefined, { caps: ELICIT });
        expect(first.body.result).toMatchObject({
          resultType: 'input_required',
          inputRequests: {
            user_context: {
              method: 'elicitation/create',
              params: { message: 'What context should the prompt use?', requestedSchema: { required: ['context'] } },
            },
          },
          requestState: expect.any(String),
        });
        const inputResponses = { user_context: { action: 'accept', content: { context: 'a refactor' } } };
        const second = await rpc(
          app,
          'prompts/get',
          { name: 'ask_context', inputResponses, requestState: first.body.result.requestState },
          as(PLAIN, { caps: ELICIT, headers: { 'mcp-name': 'ask_context' } }),
        );
        expect(second.body.result).toEqual({
          _meta: expect.any(Object),
          resultType: 'complete',
          description: 'Asks the user for context first',
          messages: [{ role: 'user', content: text('Use this context: a refactor') }],
        });
      });

      it('a requestState tampered or for another caller is refused; a client that cannot answer is told', async () => {
        const first = await get('ask_context', undefined, { caps: ELICIT });
        const state = first.body.result.requestState as string;
        const inputResponses = { user_context: { action: 'accept', content: { context: 'x' } } };
        const retry = (token: string, requestState: string) =>
          rpc(
            app,
            'prompts/get',
            { name: 'ask_context', inputResponses, requestState },
            as(token, { caps: ELICIT, headers: { 'mcp-name': 'ask_context' } }),
          );
        expect((await retry(PLAIN, `${state}x`)).body.error.code).toBe(-32602);
        expect((await retry(hs256({ sub: 'mallory' }), state)).body.error.code).toBe(-32602);
        const cannot = await get('ask_context');
        expect(cannot.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
        // It names the prompt as what asks, not a tool.
        expect(cannot.body.error.message).toMatch(/^Prompt ask_context needs the client capability "elicitation"/);
      });
    });

    describe('completion/complete for a prompt argument', () => {
      const ref = { type: 'ref/prompt', name: 'review' };

      it('the completer values for what is typed so far; the other arguments narrow them', async () => {
        const res = await complete({ ref, argument: { name: 'language', value: 'p' } });
        expect(res.body.result).toMatchObject({
          resultType: 'complete',
          completion: { values: ['python', 'perl', 'php'] },
        });
        const narrowed = await complete({
          ref,
          argument: { name: 'language', value: '' },
          context: { arguments: { code: '<?php echo 1;' } },
        });
        expect(narrowed.body.result.completion).toEqual({ values: ['php'] });
      });

      it('no completer: no values; an argument the prompt lacks, or an unknown prompt: -32602', async () => {
        expect((await complete({ ref, argument: { name: 'code', value: 'x' } })).body.result.completion).toEqual({
          values: [],
        });
        const lacking = await complete({ ref, argument: { name: 'colour', value: 'x' } });
        expect(lacking.body.error).toMatchObject({ code: -32602, message: 'Prompt review has no argument colour' });
        const unknown = await complete({
          ref: { type: 'ref/prompt', name: 'nope' },
          argument: { name: 'a', value: '' },
        });
        expect(unknown.body.error).toMatchObject({ code: -32602, message: 'Unknown prompt: nope' });
        const malformed = await complete({ ref: { type: 'ref/nothing' }, argument: { name: 'a', value: '' } });
        expect(malformed.body.error.code).toBe(-32602);
      });

      it("a prompt's scopes hold for its completions; at most 100 values are sent", async () => {
        const plan = { ref: { type: 'ref/prompt', name: 'secret_plan' }, argument: { name: 'topic', value: 't' } };
        const refused = await complete(plan);
        expect(refused.status).toBe(403);
        const ok = await complete(plan, PLANNER);
        expect(ok.body.result.completion.values).toHaveLength(100);
        expect(ok.body.result.completion).toMatchObject({ total: 150, hasMore: true });
      });
    });
    describe('completion/complete for a resource template variable', () => {
      const ref = { type: 'ref/resource', uri: 'notes://{folder}/{note}' };

      it('completes each URI variable, the ones filled in narrowing the next', async () => {
        const folders = await complete({ ref, argument: { name: 'folder', value: 'w' } }, READER);
        expect(folders.body.result.completion).toEqual({ values: ['work', 'wiki'] });
        const notes = await complete(
          { ref, argument: { name: 'note', value: 'p' }, context: { arguments: { folder: 'work' } } },
          READER,
        );
        expect(notes.body.result.completion).toEqual({ values: ['plan'] });
      });

      it("the template's scopes hold; an unknown template or variable is -32602", async () => {
        const refused = await complete({ ref, argument: { name: 'folder', value: '' } });
        expect(refused.status).toBe(403);
        expect(refused.headers['www-authenticate']).toMatch(/scope="notes:read"/);
        const unknown = await complete(
          { ref: { type: 'ref/resource', uri: 'notes://{x}' }, argument: { name: 'x', value: '' } },
          READER,
        );
        expect(unknown.body.error).toMatchObject({ code: -32602, message: 'Unknown resource template: notes://{x}' });
        const variable = await complete({ ref, argument: { name: 'colour', value: '' } }, READER);
        expect(variable.body.error).toMatchObject({
          code: -32602,
          message: 'Resource template notes://{folder}/{note} has no argument colour',
        });
      });
    });
  });

  describe('2025-11-25 (the v1 SDK client)', () => {
    it('lists, gets, completes; a DTO error is -32602; a scope-less caller sees no scoped prompt', async () => {
      const v1 = await connectV1(urlOf(app), { token: hs256({ scope: 'notes:read' }) });
      const { client } = v1;
      try {
        expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, completions: {} });
        const { prompts } = await client.listPrompts();
        expect(prompts.map((p) => p.name)).toEqual(['review', 'hello', 'shout', 'ask_context', 'broken']);
        const got = await client.getPrompt({ name: 'review', arguments: { code: 'let a = 1', language: 'rust' } });
        expect(got).toEqual({
          description: 'Reviews code',
          messages: [
            { role: 'user', content: text('Review this rust:\nlet a = 1') },
            { role: 'assistant', content: text('Looking at it.') },
          ],
        });
        const invalid = await client.getPrompt({ name: 'review', arguments: { code: 'x' } }).catch((e: unknown) => e);
        expect(codeOf(invalid)).toBe(-32602);
        const done = await client.complete({
          ref: { type: 'ref/prompt', name: 'review' },
          argument: { name: 'language', value: 'ty' },
        });
        expect(done.completion.values).toEqual(['typescript']);
        const noted = await client.complete({
          ref: { type: 'ref/resource', uri: 'notes://{folder}/{note}' },
          argument: { name: 'folder', value: 'h' },
        });
        expect(noted.completion.values).toEqual(['home']);
      } finally {
        await v1.close();
      }
    });

    it('a prompt that asks elicits on the request stream and answers once the client replied', async () => {
      const v1 = await connectV1(urlOf(app), { token: PLAIN, capabilities: { elicitation: {} } });
      const { client } = v1;
      try {
        const asked: string[] = [];
        client.setRequestHandler(ElicitRequestSchema, (r) => {
          asked.push(r.params.message);
          return { action: 'accept', content: { context: 'from v1' } };
        });
        const got = await client.getPrompt({ name: 'ask_context' });
        expect(asked).toEqual(['What context should the prompt use?']);
        expect(got.messages).toEqual([{ role: 'user', content: text('Use this context: from v1') }]);
      } finally {
        await v1.close();
      }
    });

    it('scopes hold on this wire too', async () => {
      const plain = await connectV1(urlOf(app), { token: PLAIN });
      const planner = await connectV1(urlOf(app), { token: PLANNER });
      try {
        await expect(plain.client.getPrompt({ name: 'secret_plan', arguments: { topic: 'x' } })).rejects.toThrow();
        const got = await planner.client.getPrompt({ name: 'secret_plan', arguments: { topic: 'x' } });
        expect(got.messages[0]!.content).toEqual(text('The plan for x'));
      } finally {
        await plain.close();
        await planner.close();
      }
    });
  });

  describe('a completer naming what the app lacks fails startup', () => {
    it.each([
      [{ prompt: 'nope', argument: 'a' }, /there is no @McpPrompt named "nope"/],
      [{ prompt: 'review', argument: 'colour' }, /Prompt review has no argument "colour" \(it has: code, language\)/],
      [{ resourceTemplate: 'nope', argument: 'a' }, /there is no @McpResourceTemplate named "nope"/],
      [{ resourceTemplate: 'note', argument: 'id' }, /has no argument "id" \(it has: folder, note\)/],
      [{ prompt: 'review', resourceTemplate: 'note', argument: 'code' }, /either a prompt or a resourceTemplate/],
      [{ prompt: 'review', argument: 'language' }, /two @McpCompletion for argument "language" of prompt review/],
    ])('%j', async (options, why) => {
      await expect(startWithCompleter(options)).rejects.toThrow(why);
    });
  });
});
