import 'reflect-metadata';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { connect, ForbiddenError, McpRpcError, type McpTasksClient } from '@mcp-tasks/client';
import { runCli } from '../libs/mcp-tasks-client/src/cli/cli.program.js';
import { createPromptsApp } from './fixtures/prompts-app.js';
import { demoClients } from './support/demo-clients.js';
import { hs256 } from './support/tokens.js';

/** A 1×1 PNG: what the demo's test://static-binary serves. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** What a rejected promise rejected with (fails the test when it resolved). */
async function failure(promise: Promise<unknown>): Promise<McpRpcError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpRpcError);
  return error as McpRpcError;
}

/** Runs the CLI from source in this process, its output captured (no terminal, as when piped). */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    tty: false,
    interactive: false,
    columns: 80,
    out: (line: string) => void (stdout += `${line}\n`),
    err: (line: string) => void (stderr += `${line}\n`),
  };
  const code = await runCli(['node', 'mcp-tasks', ...args], io);
  return { code, stdout, stderr };
}

/**
 * `@mcp-tasks/client`'s readResource / getPrompt / complete against the demo (its resources, the code_review prompt
 * and the conformance fixtures) at 2026-07-28 and, with `legacy: 'only'`, at 2025-11-25; the prompts fixture app for
 * a template's completions behind a scope.
 */
describe('client: resources, prompts and completions', () => {
  let url!: URL;
  const track = demoClients((u) => (url = u));

  it('reads a resource, gets a prompt and completes its argument (the guide shows it)', async () => {
    // README: resources and prompts
    const client = await connect(url);
    const { contents } = await client.readResource('demo://projects/site/manifest');
    expect(contents[0]).toMatchObject({ uri: 'demo://projects/site/manifest', mimeType: 'application/json' });
    const prompt = await client.getPrompt('code_review', { code: 'let x = 1;', language: 'rust' });
    expect(prompt.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const { completion } = await client.complete(
      { type: 'ref/prompt', name: 'code_review' },
      { name: 'language', value: 'py' },
    );
    expect(completion.values).toEqual(['python']);
    // A JSON-RPC error rejects with McpRpcError (code, message, data).
    await expect(client.getPrompt('no_such_prompt')).rejects.toMatchObject({ name: 'McpRpcError', code: -32602 });
    await client.close();
    // /README
  });

  describe.each([
    ['2026-07-28', 'never'],
    ['2025-11-25', 'only'],
  ] as const)('at %s', (version, legacy) => {
    let client: McpTasksClient;
    beforeAll(async () => {
      client = track(
        await connect(url, {
          legacy,
          handlers: { elicitation: async () => ({ action: 'accept', content: { context: 'a CLI' } }) },
        }),
      );
      expect(client.protocolVersion).toBe(version);
    });

    it('readResource: text, a base64 blob and a template read, each content with its uri', async () => {
      const text = await client.readResource('test://static-text');
      expect(text.contents).toEqual([
        expect.objectContaining({
          uri: 'test://static-text',
          text: 'This is the content of the static text resource.',
        }),
      ]);
      const blob = await client.readResource('test://static-binary');
      expect(blob.contents).toEqual([{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }]);
      const manifest = await client.readResource('demo://projects/site/manifest');
      expect(manifest.contents).toHaveLength(1);
      const [content] = manifest.contents as Array<{ uri: string; mimeType?: string; text: string }>;
      expect(content).toMatchObject({ uri: 'demo://projects/site/manifest', mimeType: 'application/json' });
      expect(JSON.parse(content.text)).toMatchObject({ project: 'site', files: expect.any(Array) });
    });

    it('readResource errors: an unknown URI, template variables the params DTO refuses (McpRpcError)', async () => {
      // The server answers -32002 at 2025-11-25; the SDK reads it, as the spec's resource-not-found, as -32602.
      const unknown = await failure(client.readResource('demo://nothing/here'));
      expect(unknown).toMatchObject({ code: -32602, data: { uri: 'demo://nothing/here' } });
      const refused = await failure(client.readResource('demo://projects/two%20words/manifest'));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toContain('project: must be 1–64 letters');
    });

    it('getPrompt: the messages for the arguments; a prompt that asks gets its answer from the handler', async () => {
      const review = await client.getPrompt('code_review', { code: 'fn main() {}', language: 'rust' });
      expect(review.messages).toEqual([
        {
          role: 'user',
          content: {
            type: 'text',
            text: 'Review this rust code, correctness first. Point at lines, suggest fixes.\n\nfn main() {}',
          },
        },
        { role: 'assistant', content: { type: 'text', text: "I'll review it for correctness first." } },
      ]);
      expect(review.description).toBe('Asks the model to review code in a given language, with a focus.');
      const asked = await client.getPrompt('test_input_required_result_prompt');
      expect(asked.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Use this context: a CLI' } }]);
    });

    it('getPrompt errors: an unknown prompt and arguments the DTO refuses are -32602', async () => {
      const unknown = await failure(client.getPrompt('no_such_prompt'));
      expect(unknown.code).toBe(-32602);
      expect(unknown.message).toContain('no_such_prompt');
      const bad = await failure(client.getPrompt('code_review', { code: 'x', language: 'cobol' }));
      expect(bad.code).toBe(-32602);
      expect(bad.message).toContain('language');
    });

    it('complete: values of a prompt argument, narrowed by the context; an unknown prompt is -32602', async () => {
      const ref = { type: 'ref/prompt', name: 'code_review' } as const;
      const languages = await client.complete(ref, { name: 'language', value: 'ja' });
      expect(languages.completion).toEqual({ values: ['java', 'javascript'] });
      const focus = await client.complete(ref, { name: 'focus', value: '' }, { context: { language: 'rust' } });
      expect(focus.completion.values).toEqual(['performance', 'security', 'correctness', 'readability', 'tests']);
      const unknown = await failure(client.complete({ type: 'ref/prompt', name: 'nope' }, { name: 'a', value: '' }));
      expect(unknown.code).toBe(-32602);
    });
  });

  it('complete on a template variable needs its scope: ForbiddenError without, the values with', async () => {
    const fixture = await createPromptsApp();
    try {
      const port = (fixture.getHttpServer().address() as { port: number }).port;
      const at = `http://127.0.0.1:${port}/mcp`;
      const ref = { type: 'ref/resource', uri: 'notes://{folder}/{note}' } as const;
      const plain = track(await connect(at, { token: hs256({ scope: '' }) }));
      await expect(plain.complete(ref, { name: 'folder', value: 'w' })).rejects.toBeInstanceOf(ForbiddenError);
      const reader = track(await connect(at, { token: hs256({ scope: 'notes:read' }) }));
      const folders = await reader.complete(ref, { name: 'folder', value: 'w' });
      expect(folders.completion.values).toEqual(['work', 'wiki']);
      const notes = await reader.complete(ref, { name: 'note', value: '' }, { context: { folder: 'work' } });
      expect(notes.completion.values).toEqual(['plan', 'minutes']);
      // 150 values: the first 100, with the total and hasMore as the completer said them.
      const topics = await track(await connect(at, { token: hs256({ scope: 'plans:read' }) })).complete(
        { type: 'ref/prompt', name: 'secret_plan' },
        { name: 'topic', value: 't' },
      );
      expect(topics.completion).toMatchObject({ total: 150, hasMore: true });
      expect(topics.completion.values).toHaveLength(100);
      // A token that expired since connect: the provider is asked again after the 401 and the read goes through.
      let expired = false;
      const rejections: string[] = [];
      const refreshing = track(
        await connect(at, {
          token: ({ rejected }) => {
            if (rejected) rejections.push(rejected.description);
            if (rejected) expired = false;
            const exp = Math.floor(Date.now() / 1000) + (expired ? -60 : 600);
            return hs256({ scope: 'notes:read', exp });
          },
        }),
      );
      expired = true;
      const again = await refreshing.readResource('notes://home/groceries', { cacheMode: 'bypass' });
      expect(again.contents).toEqual([expect.objectContaining({ text: 'home/groceries' })]);
      expect(rejections.length).toBeGreaterThan(0);
      for (const reason of rejections) expect(reason).toBe('the token has expired');
      const note = await reader.readResource('notes://work/plan');
      expect(note.contents).toEqual([expect.objectContaining({ uri: 'notes://work/plan', text: 'work/plan' })]);
    } finally {
      await fixture.close();
    }
  });

  describe('CLI: read, prompt, complete (from source, no terminal)', () => {
    it('resources and prompts: the lists as tables (--json: the items), either era', async () => {
      const resources = await cli('resources', url.href);
      expect(resources.code).toBe(0);
      expect(resources.stdout.split('\n')[0]).toMatch(/^URI +NAME +TYPE +DESCRIPTION$/);
      expect(resources.stdout).toMatch(
        /^demo:\/\/export\/limits +export-limits +application\/json +What export_project/m,
      );
      expect(resources.stdout).toMatch(
        /^demo:\/\/projects\/\{project\}\/manifest +project-manifest +application\/json /m,
      );
      expect(resources.stderr).toMatch(/^\d+ resources and \d+ templates at 2026-07-28 /);
      const json = JSON.parse((await cli('resources', url.href, '--json')).stdout);
      expect(json.resources).toContainEqual(
        expect.objectContaining({ uri: 'test://static-binary', mimeType: 'image/png' }),
      );
      expect(json.resourceTemplates).toContainEqual(
        expect.objectContaining({ uriTemplate: 'test://template/{id}/data', name: 'template-data' }),
      );
      const prompts = await cli('prompts', url.href, '--legacy', 'only');
      expect(prompts.code).toBe(0);
      expect(prompts.stdout).toMatch(/^code_review +code\*,language\*,focus +Asks the model to review code/m);
      expect(prompts.stdout).toMatch(/^test_simple_prompt +- +A prompt without arguments\.$/m);
      expect(prompts.stderr).toMatch(/^\d+ prompts at 2025-11-25; /);
    });

    it('read: text as it is, a blob described, --json the raw result; --legacy only at 2025-11-25', async () => {
      const at = url.href;
      expect(await cli('read', at, 'test://static-text')).toEqual({
        code: 0,
        stdout: 'This is the content of the static text resource.\n',
        stderr: '',
      });
      expect(await cli('read', at, 'test://static-binary')).toMatchObject({
        code: 0,
        stdout: `[blob image/png, ${Buffer.from(PNG, 'base64').length} bytes]\n`,
      });
      const json = await cli('read', at, 'test://static-binary', '--json');
      expect(JSON.parse(json.stdout)).toMatchObject({ contents: [{ uri: 'test://static-binary', blob: PNG }] });
      const legacy = await cli('read', at, 'demo://projects/site/manifest', '--legacy', 'only');
      expect(legacy.code).toBe(0);
      expect(JSON.parse(legacy.stdout)).toMatchObject({ project: 'site' });
    });

    it('read errors: an unknown URI exits 1 with its JSON-RPC code, a refused variable too', async () => {
      expect(await cli('read', url.href, 'demo://nothing/here')).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(/^error: -32602 .*demo:\/\/nothing\/here/),
      });
      const refused = await cli('read', url.href, 'demo://projects/a%20b/manifest');
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: -32602 Invalid URI variables/) });
    });

    it("prompt: the messages as 'role: text' lines; --args takes a JSON object of strings", async () => {
      const run = await cli('prompt', url.href, 'code_review', '--arg', 'code=x = 1', '--arg', 'language=python');
      expect(run).toEqual({
        code: 0,
        stdout:
          'user: Review this python code, correctness first. Point at lines, suggest fixes.\n\nx = 1\n' +
          "assistant: I'll review it for correctness first.\n",
        stderr: '',
      });
      const json = await cli('prompt', url.href, 'test_prompt_with_image', '--json');
      expect(JSON.parse(json.stdout).messages[0]).toMatchObject({
        role: 'user',
        content: { type: 'image', data: PNG },
      });
      const image = await cli('prompt', url.href, 'test_prompt_with_image');
      expect(image.stdout).toBe(
        `user: [image image/png, ${Buffer.from(PNG, 'base64').length} bytes]\n` +
          'user: Please analyze the image above.\n',
      );
    });

    it('prompt errors: unknown prompt and refused arguments exit 1, arguments that are no strings exit 2', async () => {
      const [unknown, refused, notString, both] = await Promise.all([
        cli('prompt', url.href, 'no_such_prompt'),
        cli('prompt', url.href, 'code_review', '--args', '{"code":"x","language":"cobol"}'),
        cli('prompt', url.href, 'code_review', '--args', '{"code":"x","lines":3}'),
        cli('prompt', url.href, 'code_review', '--args', '{}', '--arg', 'a=1'),
      ]);
      expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: -32602 .*no_such_prompt/) });
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: -32602 .*language/) });
      expect(notString).toEqual({
        code: 2,
        stdout: '',
        stderr: 'error: --args lines: prompt arguments are strings, not number\n',
      });
      expect(both.code).toBe(2);
      // Without a terminal no elicitation is declared: a prompt that asks cannot be answered here.
      const asks = await cli('prompt', url.href, 'test_input_required_result_prompt');
      expect(asks).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(/^error: -32021 .*"elicitation"/),
      });
    });

    it('complete: the values one a line on stdout, a count on stderr; --context narrows them', async () => {
      const base = ['complete', url.href, '--prompt', 'code_review'];
      expect(await cli(...base, '--argument', 'language', '--value', 'ja')).toEqual({
        code: 0,
        stdout: 'java\njavascript\n',
        stderr: '2 values\n',
      });
      const focus = await cli(...base, '--argument', 'focus', '--context', 'language=python');
      expect(focus.stdout.split('\n').slice(0, 2)).toEqual(['readability', 'tests']);
      const json = await cli(...base, '--argument', 'language', '--value', 'r', '--json');
      expect(JSON.parse(json.stdout)).toMatchObject({ completion: { values: ['rust'] } });
    });

    it('complete errors: no reference or both exit 2, an unknown prompt exits 1', async () => {
      const [none, both, unknown] = await Promise.all([
        cli('complete', url.href, '--argument', 'a'),
        cli('complete', url.href, '--prompt', 'p', '--resource-template', 't://{a}', '--argument', 'a'),
        cli('complete', url.href, '--prompt', 'nope', '--argument', 'a'),
      ]);
      expect(none).toMatchObject({
        code: 2,
        stderr: 'error: complete needs --prompt <name> or --resource-template <uriTemplate>\n',
      });
      expect(both.code).toBe(2);
      expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: -32602 /) });
    });

    it('complete --resource-template: 78 without the scope, the values with it', async () => {
      const fixture = await createPromptsApp();
      try {
        const at = `http://127.0.0.1:${(fixture.getHttpServer().address() as { port: number }).port}/mcp`;
        const args = ['complete', at, '--resource-template', 'notes://{folder}/{note}', '--argument', 'folder'];
        expect(await cli('prompts', at)).toMatchObject({
          code: 77,
          stderr: expect.stringMatching(/^error: unauthorized: /),
        });
        const refused = await cli(...args, '--token', hs256({ scope: '' }));
        expect(refused).toMatchObject({ code: 78, stderr: expect.stringMatching(/^error: forbidden: /) });
        const ok = await cli(...args, '--value', 'w', '--token', hs256({ scope: 'notes:read' }));
        expect(ok).toEqual({ code: 0, stdout: 'work\nwiki\n', stderr: '2 values\n' });
        const more = await cli(
          'complete',
          at,
          '--prompt',
          'secret_plan',
          '--argument',
          'topic',
          '--token',
          hs256({ scope: 'plans:read' }),
        );
        expect(more.stdout.split('\n')).toHaveLength(101);
        expect(more.stderr).toBe('100 of 150 values (more: type more of the value)\n');
      } finally {
        await fixture.close();
      }
    });
  });
});
