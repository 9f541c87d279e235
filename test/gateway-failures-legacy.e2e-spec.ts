import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFaultyUpstream, type Fault, type FaultyUpstream } from './fixtures/faulty-upstream.js';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { startLegacySdkServer, type LegacySdkServer } from './fixtures/legacy-sdk-server.js';
import { call, rpc } from './support/mcp-request.js';
import { until } from './support/until.js';

/** What a caller gets from an upstream that did not answer (docs/gateway.md, "Failures"). */
const UNREACHABLE = { code: -32603, message: 'Upstream "old" is unreachable; try again later' };
const TIMEOUT = 6_000;

/**
 * A 2025-era upstream (the official SDK's server, through its session) behind a proxy that breaks requests: what
 * the SDK client raises by itself (a request timed out, a connection closed, a transport error) is "unreachable",
 * whatever code it carries; what the upstream answers passes through; a broken session is opened again.
 */
describe('gateway: a 2025-era upstream whose requests fail on the way', () => {
  let server: LegacySdkServer;
  let proxy: FaultyUpstream;
  let gateway: INestApplication;
  const sessions = () => proxy.seen.filter((c) => c.method === 'initialize').length;
  const echo = (text: string) => call(gateway, 'old_echo', { text }).then((res) => res.body);
  const echoed = (text: string) => ({ content: [{ type: 'text', text: `echo: ${text}` }], resultType: 'complete' });
  const upstreamGot = (text: string) =>
    proxy.seen.some((c) => c.method === 'tools/call' && c.params.arguments?.text === text);
  const onEcho = (faults: Record<string, Fault>) => {
    proxy.fault = ({ method, params }) => (method === 'tools/call' ? faults[params.arguments?.text] : undefined);
  };

  beforeAll(async () => {
    server = await startLegacySdkServer();
    proxy = await startFaultyUpstream(server.url);
    gateway = await createGatewayApp([{ name: 'old', url: proxy.url, timeout: TIMEOUT, toolsTtl: 1_000 }]);
    await until('the 2025-era upstream listed', async () => (await echo('x')).result);
  }, 60_000);
  afterEach(() => {
    proxy.fault = () => undefined;
    proxy.down = false;
  });
  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
    await server?.close();
  });

  it('hanging past timeout: unreachable, not "Request timed out"; calls beside and after it answered', async () => {
    let release!: () => void;
    onEcho({ hang: 'hang', beside: { hold: new Promise<void>((resolve) => (release = resolve)) } });
    const hanging = echo('hang');
    await until('the hanging call upstream', () => upstreamGot('hang'));
    await sleep(TIMEOUT / 2);
    const beside = echo('beside');
    await until('the call beside upstream', () => upstreamGot('beside'));
    expect((await hanging).error).toEqual(UNREACHABLE);
    release();
    expect((await beside).result).toMatchObject(echoed('beside'));
    expect((await echo('next')).result).toMatchObject(echoed('next'));
  }, 30_000);

  it('connection closed mid-answer: unreachable, and the next call is answered', async () => {
    onEcho({ cut: 'cut' });
    expect((await echo('cut')).error).toEqual(UNREACHABLE);
    expect((await echo('next')).result).toMatchObject(echoed('next'));
  }, 30_000);

  it('down mid-request, then back: unreachable, then the next call is answered on a new session', async () => {
    const before = sessions();
    proxy.down = true;
    expect((await echo('down')).error).toEqual(UNREACHABLE);
    // The call, then the reconnect's first attempts (0.5 s, 1 s apart): the next one is 2 s away.
    await until('reconnect attempts refused', () => proxy.refused >= 4);
    proxy.down = false;
    expect((await echo('back')).result).toMatchObject(echoed('back'));
    expect(sessions()).toBe(before + 1);
  }, 30_000);

  it('-32001 and -32000 answered by the upstream itself pass through unchanged, on the same session', async () => {
    const before = sessions();
    const timedOut = { code: -32001, message: 'Request timed out' };
    const closed = { code: -32000, message: 'Connection closed', data: { retry: false } };
    onEcho({ a: { error: timedOut }, b: { error: closed } });
    expect((await echo('a')).error).toEqual(timedOut);
    expect((await echo('b')).error).toEqual(closed);
    expect((await echo('c')).result).toMatchObject(echoed('c'));
    expect(sessions()).toBe(before);
  });

  it('tools/list refresh: an answered error keeps the session, a closed connection opens another', async () => {
    const lists = () => proxy.seen.filter((c) => c.method === 'tools/list').length;
    const served = async () =>
      ((await rpc(gateway, 'tools/list')).body.result.tools as { name: string }[]).map((t) => t.name);
    const before = sessions();
    let armed = true;
    const once = (fault: Fault) => {
      armed = true;
      proxy.fault = ({ method }) => (method === 'tools/list' && armed ? ((armed = false), fault) : undefined);
    };
    once({ error: { code: -32000, message: 'Connection closed' } });
    await until('a refresh answered with the error', () => !armed);
    const seen = lists();
    await until('the next refresh', () => lists() > seen);
    expect(sessions()).toBe(before);
    expect(await served()).toContain('old_echo');
    once('drop');
    await until('a session opened again', () => sessions() === before + 1);
    expect(await served()).toContain('old_echo');
    expect((await echo('after')).result).toMatchObject(echoed('after'));
  }, 30_000);
});
