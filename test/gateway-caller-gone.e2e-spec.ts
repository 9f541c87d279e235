import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module, type CanActivate, type INestApplication } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { request as httpRequest } from 'node:http';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { observed } from './fixtures/fixture-tools.js';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { initialize, legacyHeaders, post, request } from './support/legacy-wire.js';
import { call, VERSION } from './support/mcp-request.js';
import { until } from './support/until.js';

/** An app-wide guard that lets everything through: with it, a proxied call runs through Nest's pipelines. */
@Injectable()
class OpenGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Module({ providers: [{ provide: APP_GUARD, useClass: OpenGuard }] })
class OpenGuardModule {}

const urlOf = async (app: INestApplication) => new URL(`${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/mcp`);

/** Sends a sync call and never reads its answer; the returned function closes the connection. */
function postAndHangUp(url: URL, body: unknown, headers: Record<string, string>): () => void {
  const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers });
  req.on('error', () => undefined); // closed on purpose
  req.end(JSON.stringify(body));
  return () => req.destroy();
}

const modernHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': 'up_wait',
};

const modernCall = (tag: string) => ({
  jsonrpc: '2.0',
  id: tag,
  method: 'tools/call',
  params: {
    name: 'up_wait',
    arguments: { ms: 60_000, tag },
    _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} },
  },
});

/**
 * A caller that closes its connection while a synchronous call runs upstream: the gateway gives the upstream request
 * up, so the upstream's run sees its signal aborted (not left running for a caller who is gone), and the gateway keeps
 * serving. Both ways a proxied call runs: with none of the app's code around it, and through Nest's pipelines.
 */
describe.each([
  ['no app enhancers', [] as unknown[]],
  ['an app-wide guard', [OpenGuardModule] as unknown[]],
])('gateway (%s): the caller gone in the middle of a proxied sync call', (_label, imports) => {
  let upstream: INestApplication;
  let gateway: INestApplication;
  let url: URL;
  const tagOf = (era: string) => `gone-${era}-${imports.length}`;
  const started = (tag: string) => until(`run ${tag} started upstream`, () => observed.runs.has(tag), 20_000);
  const aborted = (tag: string) => until(`run ${tag} aborted upstream`, () => observed.aborted.has(tag), 20_000);

  beforeAll(async () => {
    upstream = await createFixtureApp();
    gateway = await createGatewayApp([{ name: 'up', url: `${await upstream.getUrl()}/mcp` }], {}, imports);
    url = await urlOf(gateway);
    await until('the upstream listed', async () => (await call(gateway, 'up_echo', { text: 'x' })).body.result);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('a 2026-07-28 caller: the upstream run is aborted, and the next call is answered', async () => {
    const tag = tagOf('modern');
    const hangUp = postAndHangUp(url, modernCall(tag), modernHeaders);
    await started(tag);
    expect(observed.aborted.has(tag)).toBe(false);
    hangUp();
    await aborted(tag);
    const next = await call(gateway, 'up_echo', { text: 'still here' });
    expect(next.body.result.content).toEqual([{ type: 'text', text: 'echo:still here' }]);
  }, 60_000);

  it('a 2025-11-25 caller in a session: the upstream run is aborted, and the session goes on', async () => {
    const tag = tagOf('legacy');
    const { session } = await initialize(url);
    const body = request('tools/call', { name: 'up_wait', arguments: { ms: 60_000, tag } }, tag);
    const hangUp = postAndHangUp(url, body, legacyHeaders(session));
    await started(tag);
    hangUp();
    await aborted(tag);
    const next = await post(
      url,
      request('tools/call', { name: 'up_echo', arguments: { text: 'again' } }),
      legacyHeaders(session),
    );
    expect(next.body?.result?.content).toEqual([{ type: 'text', text: 'echo:again' }]);
  }, 60_000);
});
