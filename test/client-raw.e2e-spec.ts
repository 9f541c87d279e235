import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { connect, McpRpcError, type McpTask, type McpTasksClient } from '@mcp-tasks/client';
import { startLegacySdkServer, type LegacySdkServer } from './fixtures/legacy-sdk-server.js';
import { startSdkUpstream, type SdkUpstreamServer } from './fixtures/sdk-upstream-server.js';
import { startDemo } from './support/official-client.js';
import { until } from './support/until.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** What a gateway needs of the client: raw requests, listen streams of their own, tool-list changes. */
describe('client: raw requests for relaying (demo)', () => {
  let app: INestApplication;
  let url: URL;
  let client: McpTasksClient;
  beforeAll(async () => {
    ({ app, url } = await startDemo());
    client = await connect(url, { tasks: true });
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  it('request hands back an MRTR round as it is, and takes the answers and requestState back', async () => {
    const round = await client.request(
      'tools/call',
      { name: 'test_input_required_result_elicitation', arguments: {} },
      { capabilities: { elicitation: {} } },
    );
    expect(round).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
      requestState: expect.any(String),
    });
    const done = await client.request(
      'tools/call',
      {
        name: 'test_input_required_result_elicitation',
        arguments: {},
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
        requestState: round.requestState,
      },
      { capabilities: { elicitation: {} } },
    );
    expect(done).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada!' }] });
  });

  it("request declares the given capabilities, not the connection's: a task, or a synchronous answer", async () => {
    const task = await client.request('tools/call', { name: 'slow_compute', arguments: { seconds: 0.1 } });
    expect(task).toMatchObject({ resultType: 'task', status: 'working', taskId: expect.any(String) });
    const now = await client.request(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0.1, label: 'now' } },
      { capabilities: {} },
    );
    expect(now).toMatchObject({ resultType: 'complete', content: [{ text: 'Computed now in 0.1s' }] });
  });

  it('a JSON-RPC error rejects with McpRpcError (code, message, data)', async () => {
    const error = await client
      .request('tools/call', { name: 'failing_job', arguments: {} }, { capabilities: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpRpcError);
    expect(error).toMatchObject({
      code: -32021,
      message: expect.stringContaining('runs only as a task'),
      data: { requiredCapabilities: TASKS },
    });
  });

  it('listenTasks acknowledges the ids the caller may see and hands over each notified task', async () => {
    const created = await client.request(
      'tools/call',
      { name: 'confirm_delete', arguments: { filename: 'a.txt' } },
      { capabilities: { ...TASKS, elicitation: {} } },
    );
    await until('the question asked', async () => (await client.getTask(created.taskId)).status === 'input_required');
    const seen: McpTask[] = [];
    const stream = await client.listenTasks([created.taskId, 'no-such-task'], (t) => void seen.push(t));
    try {
      expect(stream.acknowledged).toEqual([created.taskId]);
      await client.updateTask(created.taskId, { confirm: { action: 'accept', content: { confirm: true } } });
      const done = await until('the end notified', () => seen.find((t) => t.status === 'completed'));
      expect(done.result?.content).toEqual([{ type: 'text', text: 'Deleted a.txt' }]);
      expect(done).not.toHaveProperty('_meta');
    } finally {
      stream.close();
    }
    await stream.closed;
  });

  it('listenTasks refused by the server rejects with McpRpcError; without tasks it is a TypeError', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `t${i}`);
    await expect(client.listenTasks(ids, () => undefined)).rejects.toMatchObject({ code: -32602 });
    const plain = await connect(url);
    try {
      await expect(plain.listenTasks(['x'], () => undefined)).rejects.toBeInstanceOf(TypeError);
    } finally {
      await plain.close();
    }
  });
});

describe('client: raw request framing and tool-list changes (servers on the official SDK)', () => {
  let modern: SdkUpstreamServer;
  let legacy: LegacySdkServer;
  beforeAll(async () => {
    modern = await startSdkUpstream();
    legacy = await startLegacySdkServer();
  });
  afterAll(async () => {
    await modern?.close();
    await legacy?.close();
  });

  it('request sends the _meta envelope, extra _meta entries and a per-request token', async () => {
    const client = await connect(modern.url, { tasks: true, token: 'connection-token' });
    try {
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const result = await client.request(
        'tools/call',
        { name: 'echo', arguments: { text: 'hi' } },
        { token: 'caller-token', meta: { traceparent }, capabilities: { elicitation: {} } },
      );
      expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'echo: hi' }] });
      const sent = modern.seen.filter((r) => r.method === 'tools/call').at(-1)!;
      expect(sent.authorization).toBe('Bearer caller-token');
      expect(sent.meta).toEqual({
        traceparent,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
        'io.modelcontextprotocol/clientInfo': { name: 'mcp-tasks-client', version: '0.1.0' },
      });
      await client.request('tools/list', {});
      expect(modern.seen.at(-1)).toMatchObject({ method: 'tools/list', authorization: 'Bearer connection-token' });
    } finally {
      await client.close();
    }
  });

  it('a server that went away rejects with what failed, not McpRpcError', async () => {
    const doomed = await startSdkUpstream();
    const client = await connect(doomed.url, { tasks: true });
    try {
      await doomed.close();
      const error = await client.request('tools/list', {}).catch((e: unknown) => e);
      // fetch's own TypeError (from Node's realm, hence no instanceof here).
      expect(error).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
      expect(error).not.toBeInstanceOf(McpRpcError);
    } finally {
      await client.close().catch(() => undefined);
    }
  });

  it('onToolsChanged fires when a 2026-07-28 server notifies a tool-list change on a listen stream', async () => {
    let changes = 0;
    const client = await connect(modern.url, { onToolsChanged: () => void changes++ });
    try {
      await until('the SDK listening for list changes', () =>
        modern.seen.some((r) => r.method === 'subscriptions/listen'),
      );
      modern.addTool('whisper', true);
      await until('onToolsChanged called', () => changes > 0);
      expect((await client.request('tools/list', {})).tools.map((t: { name: string }) => t.name)).toContain('whisper');
    } finally {
      await client.close();
    }
  });

  it('onToolsChanged fires on notifications/tools/list_changed of a 2025-era server', async () => {
    let changes = 0;
    const streams = legacy.getStreams;
    const client = await connect(legacy.url, { legacy: 'fallback', onToolsChanged: () => void changes++ });
    try {
      // The notification goes on the session's GET stream, which the SDK opens after connecting.
      await until('the GET stream open', () => legacy.getStreams > streams);
      legacy.addTool('later');
      await until('onToolsChanged called', () => changes > 0);
      expect((await client.sdk.listTools()).tools.map((t) => t.name)).toContain('later');
      // A legacy connection has no 2026-07-28 wire to send raw requests on.
      await expect(client.request('tools/list', {})).rejects.toThrow(/needs a 2026-07-28 connection/);
    } finally {
      await client.close();
    }
  });
});
