import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Injectable,
  Module,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { McpExecutionContext, McpTasksModule, type McpUpstreamOptions } from '@mcp-tasks/nestjs';
import { FixtureToolsModule } from './fixtures/fixture-app.js';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { startLegacySdkServer, type LegacySdkServer } from './fixtures/legacy-sdk-server.js';
import { startSdkUpstream, type SdkUpstreamServer } from './fixtures/sdk-upstream-server.js';
import { freePort } from './support/free-port.js';
import { call, rpc, TASKS } from './support/mcp-request.js';
import { hs256, ISSUER, RESOURCE, SECRET } from './support/tokens.js';
import { until } from './support/until.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = `00-${TRACE}-00f067aa0ba902b7-01`;

const toolNames = async (app: INestApplication, token?: string): Promise<string[]> => {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const { body } = await rpc(app, 'tools/list', {}, { headers });
  return (body.result?.tools ?? []).map((t: { name: string }) => t.name);
};
const served = (names: string[], prefix: string) => names.filter((n) => n.startsWith(`${prefix}_`));

/** Upstreams that are not this library: servers written directly on the official SDK, of both eras. */
describe('gateway: upstreams built on the official SDK', () => {
  let modern: SdkUpstreamServer;
  let legacy: LegacySdkServer;
  let gateway: INestApplication;
  beforeAll(async () => {
    modern = await startSdkUpstream();
    legacy = await startLegacySdkServer();
    gateway = await createGatewayApp([
      { name: 'sdk', url: modern.url.href },
      { name: 'old', url: legacy.url.href, tools: ['echo'] },
    ]);
    await until('both upstreams listed', async () => {
      const names = await toolNames(gateway);
      return names.includes('sdk_echo') && names.includes('old_echo');
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await modern?.close();
    await legacy?.close();
  });

  it('lists their tools prefixed, with title, schema and annotations; the tools option filters', async () => {
    const { body } = await rpc(gateway, 'tools/list');
    const tools = body.result.tools as Array<Record<string, any>>;
    expect(
      served(
        tools.map((t) => t.name),
        'sdk',
      ),
    ).toEqual(['sdk_echo', 'sdk_shout']);
    expect(
      served(
        tools.map((t) => t.name),
        'old',
      ),
    ).toEqual(['old_echo']);
    expect(tools.find((t) => t.name === 'sdk_shout')).toEqual({
      name: 'sdk_shout',
      title: 'The shout tool',
      description: 'Answers with the text (shout)',
      inputSchema: expect.objectContaining({ type: 'object', properties: { text: { type: 'string' } } }),
      annotations: { readOnlyHint: true },
    });
  });

  it('calls a 2026-07-28 SDK server (with or without the Tasks extension declared) and a 2025-era one', async () => {
    expect((await call(gateway, 'sdk_shout', { text: 'hi' })).body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'HI' }],
    });
    expect((await call(gateway, 'sdk_echo', { text: 'x' }, { caps: TASKS })).body.result).toMatchObject({
      content: [{ type: 'text', text: 'echo: x' }],
    });
    expect((await call(gateway, 'old_echo', { text: 'hi' }, { caps: TASKS })).body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'echo: hi' }],
    });
    expect((await call(gateway, 'old_ask_name', {})).body.error).toEqual({
      code: -32602,
      message: 'Unknown tool: old_ask_name',
    });
  });

  it("the caller's capabilities travel upstream, and its trace context (traceparent in _meta)", async () => {
    await call(gateway, 'sdk_echo', { text: 'traced' }, { caps: { elicitation: {} }, meta: { traceparent } });
    const sent = modern.seen.filter((r) => r.method === 'tools/call').at(-1)!;
    expect(sent.meta['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: {} });
    expect(sent.meta.traceparent).toBe(traceparent);
  });

  it('a tool added upstream appears after a tools/list_changed notification', async () => {
    legacy.addTool('later');
    modern.addTool('whisper', true);
    await until('sdk_whisper listed', async () => (await toolNames(gateway)).includes('sdk_whisper'));
    // The 2025-era upstream notified too, but `tools: ['echo']` keeps its new tool out.
    expect(served(await toolNames(gateway), 'old')).toEqual(['old_echo']);
  });
});

describe('gateway: trace context with OpenTelemetry', () => {
  const exporter = new InMemorySpanExporter();
  let upstream: SdkUpstreamServer;
  let gateway: INestApplication;
  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    upstream = await startSdkUpstream();
    gateway = await createGatewayApp([{ name: 'sdk', url: upstream.url.href }]);
    await until('listed', async () => (await toolNames(gateway)).includes('sdk_echo'));
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it("the upstream call continues the caller's trace as a child of the gateway's tools/call span", async () => {
    await call(gateway, 'sdk_echo', { text: 'traced' }, { meta: { traceparent } });
    const sent = upstream.seen.filter((r) => r.method === 'tools/call').at(-1)!;
    const span = exporter.getFinishedSpans().find((s) => s.name === 'tools/call sdk_echo')!;
    expect(span.spanContext().traceId).toBe(TRACE);
    expect(sent.meta.traceparent).toBe(`00-${TRACE}-${span.spanContext().spanId}-01`);
  });
});

describe('gateway: an upstream that comes and goes', () => {
  let port: number;
  let upstream: SdkUpstreamServer | undefined;
  let gateway: INestApplication;
  beforeAll(async () => {
    port = await freePort();
    gateway = await createGatewayApp([{ name: 'late', url: `http://127.0.0.1:${port}/mcp`, toolsTtl: 500 }]);
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('down at startup: the gateway starts with its own tools; the upstream tools appear once it answers', async () => {
    const before = await toolNames(gateway);
    expect(before).toContain('echo');
    expect(served(before, 'late')).toEqual([]);
    expect((await call(gateway, 'late_echo', { text: 'x' })).body.error).toEqual({
      code: -32602,
      message: 'Unknown tool: late_echo',
    });
    upstream = await startSdkUpstream(port);
    await until('late_echo listed', async () => (await toolNames(gateway)).includes('late_echo'), 60_000);
    expect((await call(gateway, 'late_echo', { text: 'x' })).body.result.content).toEqual([
      { type: 'text', text: 'echo: x' },
    ]);
  }, 90_000);

  it('the list is read again every toolsTtl, without any notification', async () => {
    upstream!.addTool('quiet', false);
    await until('late_quiet listed', async () => (await toolNames(gateway)).includes('late_quiet'));
  });

  it('gone: a call gets -32603 to retry later, naming nothing of the upstream but its name', async () => {
    await upstream!.close();
    upstream = undefined;
    const res = await call(gateway, 'late_echo', { text: 'x' });
    expect(res.status).toBe(200);
    expect(res.body.error).toEqual({ code: -32603, message: 'Upstream "late" is unreachable; try again later' });
    expect(JSON.stringify(res.body)).not.toContain(String(port));
    // Still listed (the last list is kept): it comes back when the upstream does.
    expect(await toolNames(gateway)).toContain('late_echo');
  });
});

/** What the app-wide enhancers saw of tool calls: `<tool> <args as JSON>`. */
const intercepted: string[] = [];

@Injectable()
class NoShoutingGuard implements CanActivate {
  canActivate(ec: ExecutionContext): boolean {
    return McpExecutionContext.call(ec)?.tool !== 'sdk_shout';
  }
}

@Injectable()
class RecordingInterceptor implements NestInterceptor {
  intercept(ec: ExecutionContext, next: CallHandler) {
    const call = McpExecutionContext.call(ec);
    if (call?.tool) intercepted.push(`${call.tool} ${JSON.stringify(call.args)}`);
    return next.handle();
  }
}

@Module({
  providers: [
    { provide: APP_GUARD, useClass: NoShoutingGuard },
    { provide: APP_INTERCEPTOR, useClass: RecordingInterceptor },
  ],
})
class AppWideModule {}

describe('gateway: the app-wide guards and interceptors see proxied calls as tool calls', () => {
  let upstream: SdkUpstreamServer;
  let gateway: INestApplication;
  beforeAll(async () => {
    upstream = await startSdkUpstream();
    gateway = await createGatewayApp([{ name: 'sdk', url: upstream.url.href }], {}, [AppWideModule]);
    await until('listed', async () => (await toolNames(gateway)).includes('sdk_echo'));
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('an app guard refusing a served tool stops it before the upstream; an interceptor wraps the others', async () => {
    const calls = upstream.seen.filter((r) => r.method === 'tools/call').length;
    const refused = await call(gateway, 'sdk_shout', { text: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: -32600, message: 'Forbidden resource' });
    expect(upstream.seen.filter((r) => r.method === 'tools/call').length).toBe(calls);
    const ok = await call(gateway, 'sdk_echo', { text: 'y' });
    expect(ok.body.result.content).toEqual([{ type: 'text', text: 'echo: y' }]);
    expect(intercepted).toEqual(['sdk_echo {"text":"y"}']);
  });
});

describe('gateway: scopes, auth to the upstream, forRootAsync', () => {
  let upstream: SdkUpstreamServer;
  const apps: INestApplication[] = [];
  beforeAll(async () => {
    upstream = await startSdkUpstream();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  afterAll(async () => upstream?.close());

  const auth = { resource: RESOURCE, authorizationServers: [ISSUER], issuer: ISSUER, secretOrKey: SECRET };

  it('scopes: listed only to callers who have them, refused with 403 insufficient_scope otherwise', async () => {
    const gateway = await createGatewayApp([{ name: 'sdk', url: upstream.url.href, scopes: ['sdk:use'] }], { auth });
    apps.push(gateway);
    const allowed = hs256({ scope: 'sdk:use' });
    const other = hs256({ scope: 'other' });
    await until('listed', async () => (await toolNames(gateway, allowed)).includes('sdk_echo'));
    expect(served(await toolNames(gateway, other), 'sdk')).toEqual([]);
    const calls = upstream.seen.length;
    const refused = await call(gateway, 'sdk_echo', { text: 'x' }, { headers: { authorization: `Bearer ${other}` } });
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toContain('error="insufficient_scope", scope="sdk:use"');
    // The guards come before the arguments are checked: malformed ones are still a 403 for this caller.
    const malformed = await rpc(
      gateway,
      'tools/call',
      { name: 'sdk_echo', arguments: ['not', 'an', 'object'] },
      { headers: { authorization: `Bearer ${other}` } },
    );
    expect(malformed.status).toBe(403);
    expect(upstream.seen.length).toBe(calls);
    const invalid = await rpc(
      gateway,
      'tools/call',
      { name: 'sdk_echo', arguments: ['not', 'an', 'object'] },
      { headers: { authorization: `Bearer ${allowed}` } },
    );
    expect(invalid.body.error).toMatchObject({ code: -32602, message: 'arguments must be an object' });
    expect(upstream.seen.length).toBe(calls);
    const ok = await call(gateway, 'sdk_echo', { text: 'x' }, { headers: { authorization: `Bearer ${allowed}` } });
    expect(ok.body.result.content).toEqual([{ type: 'text', text: 'echo: x' }]);
  });

  it('exchange: each call carries a token made from its caller; the gateway lists with its own', async () => {
    const upstreams: McpUpstreamOptions[] = [
      {
        name: 'sdk',
        url: upstream.url.href,
        auth: { type: 'exchange', token: async (p) => `for-${p.subject}`, serviceToken: 'gateway-itself' },
      },
    ];
    const gateway = await createGatewayApp(upstreams, { auth });
    apps.push(gateway);
    const bob = hs256({ sub: 'bob' });
    await until('listed', async () => (await toolNames(gateway, bob)).includes('sdk_echo'));
    expect(upstream.seen.filter((r) => r.method === 'tools/list').at(-1)?.authorization).toBe('Bearer gateway-itself');
    await call(gateway, 'sdk_echo', { text: 'x' }, { headers: { authorization: `Bearer ${bob}` } });
    expect(upstream.seen.filter((r) => r.method === 'tools/call').at(-1)?.authorization).toBe('Bearer for-bob');
  });

  it('a static bearer token goes with every request; forRootAsync takes upstreams like forRoot', async () => {
    const ref = await Test.createTestingModule({
      imports: [
        McpTasksModule.forRootAsync({
          useFactory: async () => ({
            server: { name: 'gateway', version: '1.0.0' },
            upstreams: [{ name: 'sdk', url: upstream.url.href, auth: { type: 'bearer', token: 'static-t' } }],
          }),
        }),
        FixtureToolsModule,
      ],
    }).compile();
    const gateway = ref.createNestApplication({ logger: false });
    await gateway.listen(0, '127.0.0.1');
    apps.push(gateway);
    await until('listed', async () => (await toolNames(gateway)).includes('sdk_shout'));
    await call(gateway, 'sdk_shout', { text: 'a' });
    const mine = upstream.seen.filter((r) => r.method === 'tools/call').at(-1);
    expect(mine?.authorization).toBe('Bearer static-t');
  });

  it('with upstreams, a store without adoptLapsedMirrors is refused at startup', async () => {
    const store = { create() {}, get() {}, update() {}, sweep() {}, renewLeases() {}, reclaimExpiredLeases() {} };
    await expect(
      createGatewayApp([{ name: 'sdk', url: upstream.url.href }], { store: store as never }),
    ).rejects.toThrow('McpTasksModule: upstreams need a store with adoptLapsedMirrors');
  });
});
