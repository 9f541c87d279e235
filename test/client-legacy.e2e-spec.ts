import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { connect, TasksUnavailableError, type McpTasksClient } from '@mcp-tasks/client';
import { startLegacySdkServer, type LegacySdkServer } from './fixtures/legacy-sdk-server.js';
import { startDemo } from './support/official-client.js';

/**
 * The `legacy` option of `connect`: one client for 2026-07-28 servers and for servers that only speak a
 * 2025 revision (here one built directly on the official SDK), with synchronous tools on the latter.
 */
describe('client: legacy fallback', () => {
  let legacyServer: LegacySdkServer;
  let app: INestApplication;
  let demoUrl: URL;
  const opened: McpTasksClient[] = [];
  const track = <T extends McpTasksClient>(c: T): T => (opened.push(c), c);
  beforeAll(async () => {
    legacyServer = await startLegacySdkServer();
    ({ app, url: demoUrl } = await startDemo());
  });
  afterAll(async () => {
    for (const c of opened) await c.close().catch(() => undefined);
    await legacyServer?.close();
    await app?.close();
  });

  it("legacy: 'fallback' talks to a 2025-11-25 server: list tools and call them synchronously", async () => {
    const url = legacyServer.url;
    const before = legacyServer.methods.length;
    // README: legacy
    const client = await connect(url, { tasks: true, legacy: 'fallback' });
    expect(client.legacy).toBe(true);
    expect(client.protocolVersion).toBe('2025-11-25');
    const { tools } = await client.sdk.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'ask_name']);
    const call = await client.callTool('echo', { text: 'hi' });
    expect(call).toEqual({ kind: 'result', result: { content: [{ type: 'text', text: 'echo: hi' }] } });
    await client.close();
    // /README
    // It asked with server/discover first, then shook hands the 2025 way.
    expect(legacyServer.methods.slice(before, before + 3)).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
    ]);
    expect(client.tasks).toBe(false);
  });

  it('on a legacy connection the handlers answer the server’s own elicitation/create request', async () => {
    const asked: string[] = [];
    const client = track(
      await connect(legacyServer.url, {
        legacy: 'fallback',
        handlers: {
          elicitation: (params, { key, taskId }) => (
            asked.push(`${params.message} (key ${key}, task ${String(taskId)})`),
            { action: 'accept', content: { name: 'Ada' } }
          ),
        },
      }),
    );
    expect(await client.runTool('ask_name')).toEqual({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    // A 2025 server asks with a JSON-RPC request of its own; its id is the key.
    expect(asked).toEqual([expect.stringMatching(/^What is your name\? \(key \d+, task undefined\)$/)]);
  });

  it('task features fail clearly on a legacy connection, before anything is sent', async () => {
    const client = track(await connect(legacyServer.url, { tasks: true, legacy: 'fallback' }));
    const sent = legacyServer.methods.length;
    const attempts: Array<[string, Promise<unknown>]> = [
      ['awaitTask', client.awaitTask({ taskId: 't' })],
      ['awaitTask', client.awaitTask({ taskId: 't' }, { listen: true })],
      ['getTask', client.getTask('t')],
      ['updateTask', client.updateTask('t', {})],
      ['cancelTask', client.cancelTask('t')],
    ];
    for (const [feature, attempt] of attempts) {
      await expect(attempt).rejects.toBeInstanceOf(TasksUnavailableError);
      await expect(attempt).rejects.toThrow(
        `${feature} needs a server at protocol 2026-07-28 with the Tasks extension; ` +
          'this one was connected at 2025-11-25 (legacy), where only synchronous tool calls work',
      );
    }
    expect(legacyServer.methods.length).toBe(sent);
  });

  it("legacy: 'never' (the default) refuses a 2025-only server at connect", async () => {
    await expect(connect(legacyServer.url)).rejects.toThrow(/did not offer pinned protocol version 2026-07-28/);
    await expect(connect(legacyServer.url, { legacy: 'never' })).rejects.toMatchObject({
      code: 'ERA_NEGOTIATION_FAILED',
    });
  });

  it("legacy: 'fallback' takes 2026-07-28 when the server offers it: tasks work as usual", async () => {
    const client = track(await connect(demoUrl, { tasks: true, legacy: 'fallback' }));
    expect(client).toMatchObject({ legacy: false, tasks: true, protocolVersion: '2026-07-28' });
    const result = await client.runTool('slow_compute', { seconds: 0.1, label: 'modern' });
    expect(result.content).toEqual([{ type: 'text', text: 'Computed modern in 0.1s' }]);
  });

  it("legacy: 'only' uses initialize even with a 2026-07-28 server (the demo's 2025 path: synchronous)", async () => {
    const client = track(await connect(demoUrl, { tasks: true, legacy: 'only' }));
    expect(client).toMatchObject({ legacy: true, tasks: false, protocolVersion: '2025-11-25' });
    expect(await client.callTool('slow_compute', { seconds: 0.1, label: 'old' })).toMatchObject({
      kind: 'result',
      result: { content: [{ type: 'text', text: 'Computed old in 0.1s' }] },
    });
    // A tool that only runs as a task is refused by the server on that path (a JSON-RPC error).
    await expect(client.callTool('confirm_delete', { filename: 'x' })).rejects.toMatchObject({
      code: expect.any(Number),
    });
  });

  it('a bad legacy value is a TypeError', async () => {
    await expect(connect(demoUrl, { legacy: 'sometimes' as never })).rejects.toThrow(TypeError);
    await expect(connect(demoUrl, { legacy: 'sometimes' as never })).rejects.toThrow(
      "connect: legacy must be 'never', 'fallback' or 'only', not sometimes",
    );
  });
});
