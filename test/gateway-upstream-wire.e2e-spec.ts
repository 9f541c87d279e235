import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module, type CanActivate, type ExecutionContext, type INestApplication } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Request } from 'express';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { startDemoProcess, type DemoProcess } from './support/demo-process.js';
import { call, rpc } from './support/mcp-request.js';
import { recordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { until } from './support/until.js';

const listed = (gateway: INestApplication) =>
  until('the upstream tools listed', async () => {
    const { body } = await rpc(gateway, 'tools/list');
    return body.result?.tools?.some((t: { name: string }) => t.name === 'upstream_word_count');
  });

/**
 * What the upstream gets of a forwarded call, seen through a recording proxy between the gateway (on the fast path)
 * and the built demo: a request its fast path takes, answered as JSON; the tool's header arguments mirrored; one
 * kept-alive connection for calls in turn, closed with the gateway.
 */
describe('gateway: what the upstream sees of a forwarded call', () => {
  let upstream: DemoProcess;
  let proxy: RecordingProxy;
  let gateway: INestApplication | undefined;
  const calls = (tool: string) =>
    proxy.exchanges.filter((e) => e.headers['mcp-method'] === 'tools/call' && e.headers['mcp-name'] === tool);

  beforeAll(async () => {
    upstream = await startDemoProcess();
    proxy = await recordingProxy(upstream.url);
    gateway = await createGatewayApp([{ name: 'upstream', url: proxy.url }], { fastPath: true });
    await listed(gateway);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
    await upstream?.stop();
  });

  it("a tools/call is plain JSON the upstream's fast path answers: JSON back, not its Express route", async () => {
    const res = await call(gateway!, 'upstream_word_count', { text: 'one two' });
    expect(res.body.result.content).toEqual([{ type: 'text', text: '2 words' }]);
    const [sent] = calls('word_count');
    expect(sent.headers).toMatchObject({
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'word_count',
    });
    expect(JSON.parse(sent.body).params._meta).toMatchObject({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    });
    expect(sent.status).toBe(200);
    expect(sent.responseHeaders['content-type']).toMatch(/^application\/json/);
    // Express stamps what its route answers (`tools/list` here); the fast path answers ahead of it.
    expect(sent.responseHeaders['x-powered-by']).toBeUndefined();
    const list = proxy.exchanges.find((e) => e.headers['mcp-method'] === 'tools/list');
    expect(list?.responseHeaders['x-powered-by']).toBe('Express');
  });

  it('x-mcp-header arguments go upstream as Mcp-Param-* headers, from the schema the gateway listed', async () => {
    const res = await call(gateway!, 'upstream_test_routing_header', { region: 'eu-west-3' });
    expect(res.body.result?.content).toEqual([{ type: 'text', text: 'Routed to eu-west-3' }]);
    expect(calls('test_routing_header')[0].headers['mcp-param-region']).toBe('eu-west-3');
  });

  it('calls in turn go on one kept-alive connection, which closing the gateway closes', async () => {
    for (let i = 0; i < 10; i++) await call(gateway!, 'upstream_greet', { name: `n${i}` });
    const used = new Set(calls('greet').map((e) => e.connection));
    expect(calls('greet')).toHaveLength(10);
    expect(used.size).toBe(1);
    const [connection] = used;
    expect(proxy.closed(connection)).toBe(false);
    await gateway!.close();
    gateway = undefined;
    // The proxy would keep it a minute: closed within seconds, the gateway's client closed it.
    await until('the connection closed', () => proxy.closed(connection), 5000);
  });
});

/** An app-wide guard that reads the request with Express's own API (`req.get`). */
@Injectable()
class TeamGuard implements CanActivate {
  canActivate(ec: ExecutionContext): boolean {
    return ec.switchToHttp().getRequest<Request>().get('x-team') !== 'red';
  }
}

@Module({ providers: [{ provide: APP_GUARD, useClass: TeamGuard }] })
class TeamGuardModule {}

describe("gateway on the fast path: the app's guards get the platform's request", () => {
  let upstream: DemoProcess;
  let gateway: INestApplication;
  beforeAll(async () => {
    upstream = await startDemoProcess();
    gateway = await createGatewayApp([{ name: 'upstream', url: upstream.url }], { fastPath: true }, [TeamGuardModule]);
    await listed(gateway);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.stop();
  });

  it('a guard calling req.get() lets a proxied call through or refuses it', async () => {
    const blue = await call(gateway, 'upstream_word_count', { text: 'a b c' }, { headers: { 'x-team': 'blue' } });
    expect(blue.body.result?.content).toEqual([{ type: 'text', text: '3 words' }]);
    const red = await call(gateway, 'upstream_word_count', { text: 'a' }, { headers: { 'x-team': 'red' } });
    expect(red.status).toBe(403);
  });
});
