import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { connect } from '@mcp-tasks/client';
import { demoClients } from './support/demo-clients.js';

/** `@mcp-tasks/client` calls that answer in the request: without the Tasks extension, MRTR rounds, sync tools. */
describe('client: synchronous calls and MRTR rounds (demo)', () => {
  let url!: URL;
  const track = demoClients((u) => (url = u));

  it('without tasks: optional tools answer synchronously, MRTR rounds go to the handlers', async () => {
    // README: no tasks
    const client = await connect(url, {
      handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    });
    const call = await client.callTool('slow_compute', { seconds: 0.1, label: 'now' });
    expect(call.kind).toBe('result');
    if (call.kind === 'result') expect(call.result.content).toEqual([{ type: 'text', text: 'Computed now in 0.1s' }]);
    const asked = await client.callTool('test_input_required_result_elicitation', {});
    if (asked.kind === 'result') expect(asked.result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    await client.close();
    // /README
    expect(asked.kind).toBe('result');
  });

  it.each([false, true])(
    'elicitation, sampling and roots handlers answer one MRTR round together (tasks: %s)',
    async (tasks) => {
      const client = track(
        await connect(url, {
          tasks,
          handlers: {
            elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
            sampling: (params, { key }) => ({
              model: 'stub',
              role: 'assistant',
              content: { type: 'text', text: `${key}: ${params.messages.length ? 'Paris' : '?'}` },
            }),
            roots: () => ({ roots: [{ uri: 'file:///work' }] }),
          },
        }),
      );
      const call = await client.callTool('test_input_required_result_multiple_inputs', {});
      expect(call).toMatchObject({
        kind: 'result',
        result: { content: [{ type: 'text', text: 'name=Ada; model=capital_question: Paris; roots=1' }] },
      });
    },
  );

  it('without tasks: a required tool is refused by the server, and listen is refused locally', async () => {
    const client = track(await connect(url));
    await expect(client.callTool('confirm_delete', { filename: 'x' })).rejects.toMatchObject({ code: -32021 });
    await expect(client.awaitTask({ taskId: 'any' }, { listen: true })).rejects.toThrow(
      'needs a client connected with tasks: true',
    );
  });

  it('a synchronous tool through a tasks client answers { kind: "result" }', async () => {
    const client = track(await connect(url, { tasks: true }));
    const call = await client.callTool('greet', { name: 'Bob' });
    expect(call).toMatchObject({ kind: 'result', result: { content: [{ type: 'text', text: 'Hello, Bob!' }] } });
    // The official Client stays available for the rest of the protocol.
    const { tools } = await client.sdk.listTools();
    expect(tools.map((t) => t.name)).toContain('confirm_delete');
  });
});
