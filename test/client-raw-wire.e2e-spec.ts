import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { connect, type McpTasksClient } from '@mcp-tasks/client';
import { startDemo } from './support/official-client.js';
import { recordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { until } from './support/until.js';

/** `request` on the wire, through a recording proxy in front of the demo. */
describe('client: raw requests on the wire', () => {
  let app: INestApplication;
  let proxy: RecordingProxy;
  let client: McpTasksClient;
  const sent = (name: string) =>
    proxy.exchanges.filter((e) => e.headers['mcp-method'] === 'tools/call' && e.headers['mcp-name'] === name);
  beforeAll(async () => {
    const demo = await startDemo();
    app = demo.app;
    proxy = await recordingProxy(demo.url.href);
    client = await connect(proxy.url, { tasks: true });
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await app?.close();
  });

  it('inputSchema: the headers mirror the schema given, not the listed one (greet has no x-mcp-header)', async () => {
    const inputSchema = { type: 'object', properties: { name: { type: 'string', 'x-mcp-header': 'Who' } } };
    const answer = await client.request('tools/call', { name: 'greet', arguments: { name: 'Zoe' } }, { inputSchema });
    expect(answer.content).toEqual([{ type: 'text', text: 'Hello, Zoe!' }]);
    await client.request('tools/call', { name: 'greet', arguments: { name: 'Yan' } });
    expect(sent('greet').map((e) => e.headers['mcp-param-who'])).toEqual(['Zoe', undefined]);
  });

  it('raw requests in turn share one kept-alive connection, and close() closes it', async () => {
    const before = sent('greet').length;
    for (let i = 0; i < 5; i++) await client.request('tools/call', { name: 'greet', arguments: { name: `n${i}` } });
    const used = new Set(
      sent('greet')
        .slice(before)
        .map((e) => e.connection),
    );
    expect(used.size).toBe(1);
    const [connection] = used;
    await client.close();
    // The proxy announces a minute's keep-alive: closed within seconds, the client closed it.
    await until('the connection closed', () => proxy.closed(connection), 5000);
  });
});
