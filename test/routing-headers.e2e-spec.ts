import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, type INestApplication } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsNumber, IsString, ValidateNested } from 'class-validator';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpHeader, McpTool } from '@mcp-tasks/nestjs';
import { connect, realmFetch } from '@mcp-tasks/client';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { createRoutingApp } from './fixtures/routing-app.js';
import { post, request } from './support/legacy-wire.js';
import { call, VERSION } from './support/mcp-request.js';
import { PLATFORM_MATRIX } from './support/platforms.js';
import { until } from './support/until.js';

const urlOf = (app: INestApplication) =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);

const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;

/** A 2026-07-28 `tools/call` of `route` over real HTTP with these arguments and `Mcp-Param-*` headers. */
function route(url: URL, args: Record<string, unknown>, params: Record<string, string> = {}) {
  const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': 'tools/call',
    'mcp-name': 'route',
    ...Object.fromEntries(Object.entries(params).map(([k, v]) => [`mcp-param-${k}`, v])),
  };
  return post(url, request('tools/call', { name: 'route', arguments: args, _meta: meta }), headers);
}

const refused = (res: { status: number; body: any }) => ({ status: res.status, code: res.body?.error?.code });
const REFUSED = { status: 400, code: -32020 };

describe.each(PLATFORM_MATRIX)('Mcp-Param-* headers (SEP-2243), %s, fastPath %s', (platform, fastPath) => {
  let app: INestApplication;
  let url: URL;

  beforeAll(async () => {
    app = await createRoutingApp(undefined, fastPath, platform);
    url = urlOf(app);
  });
  afterAll(() => app.close());

  it('tools/list marks each @McpHeader property x-mcp-header, and only those', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': VERSION,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const res = await post(url, request('tools/list', { _meta: meta }), {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/list',
    });
    const { properties } = res.body.result.tools[0].inputSchema;
    expect(properties.tenant).toEqual({ type: 'string', 'x-mcp-header': 'Tenant-Id' });
    expect(properties.shard).toMatchObject({ type: 'integer', 'x-mcp-header': 'Shard' });
    expect(properties.dryRun).toMatchObject({ type: 'boolean', 'x-mcp-header': 'Dry-Run' });
    expect(properties.note['x-mcp-header']).toBeUndefined();
  });

  it('a call whose headers repeat the body runs (integer and boolean as text, header names in any case)', async () => {
    const res = await route(
      url,
      { tenant: 'acme', shard: 42, dryRun: false },
      {
        'TENANT-ID': 'acme',
        shard: '42.0',
        'dry-run': 'false',
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'tenant=acme shard=42 dryRun=false' }]);
  });

  it('absent and null values need no header', async () => {
    const res = await route(url, { tenant: 'acme', shard: null }, { 'tenant-id': ' acme ' });
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBeUndefined();
  });

  it('a mismatched header is 400, -32020, and the tool does not run', async () => {
    const res = await route(url, { tenant: 'acme' }, { 'tenant-id': 'globex' });
    expect(refused(res)).toEqual(REFUSED);
    expect(res.body.error.message).toContain('Mcp-Param-Tenant-Id');
    expect(refused(await route(url, { tenant: 'acme', shard: 7 }, { 'tenant-id': 'acme', shard: '8' }))).toEqual(
      REFUSED,
    );
    const flag = await route(url, { tenant: 'acme', dryRun: true }, { 'tenant-id': 'acme', 'dry-run': 'TRUE' });
    expect(refused(flag)).toEqual(REFUSED);
  });

  it('a missing header for a value in the body is 400, -32020; so is a header without a value', async () => {
    expect(refused(await route(url, { tenant: 'acme' }))).toEqual(REFUSED);
    expect(refused(await route(url, { tenant: 'acme' }, { 'tenant-id': 'acme', shard: '1' }))).toEqual(REFUSED);
  });

  it('base64 values are decoded before comparing: a non-ASCII tenant, padding, a sentinel-like literal', async () => {
    const ok = await route(url, { tenant: 'Zürich 世界' }, { 'tenant-id': b64('Zürich 世界') });
    expect(ok.body.result.content[0].text).toBe('tenant=Zürich 世界 shard=undefined dryRun=undefined');
    const literal = await route(url, { tenant: '=?base64?literal?=' }, { 'tenant-id': b64('=?base64?literal?=') });
    expect(literal.status).toBe(200);
    // Without the sentinel a value is literal: base64 text is not decoded.
    const plain = await route(url, { tenant: 'SGVsbG8=' }, { 'tenant-id': 'SGVsbG8=' });
    expect(plain.status).toBe(200);
    expect(refused(await route(url, { tenant: 'Hello' }, { 'tenant-id': 'SGVsbG8=' }))).toEqual(REFUSED);
  });

  it('invalid base64 (padding, alphabet) and a decoded value that differs are 400, -32020', async () => {
    for (const bad of ['=?base64?SGVsbG8?=', '=?base64?SGVs!!!bG8=?=', '=?base64?/w==?=', b64('Hellö')]) {
      expect(refused(await route(url, { tenant: 'Hello' }, { 'tenant-id': bad }))).toEqual(REFUSED);
    }
  });

  it('a non-ASCII value sent raw (not base64) is 400, -32020', async () => {
    // Node sends a string header as latin1: "é" arrives as one byte outside the visible-ASCII range.
    expect(refused(await route(url, { tenant: 'café' }, { 'tenant-id': 'café' }))).toEqual(REFUSED);
  });

  it('the official 2026-07-28 client mirrors the arguments itself, base64 for a non-ASCII tenant', async () => {
    const client = new Client({ name: 'routing-e2e', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: realmFetch }));
    try {
      const res = await client.callTool({ name: 'route', arguments: { tenant: 'Zürich', shard: 3, dryRun: true } });
      expect(res.content).toEqual([{ type: 'text', text: 'tenant=Zürich shard=3 dryRun=true' }]);
    } finally {
      await client.close();
    }
  });

  it("this repository's client mirrors them on its task path too (a client declaring the extension)", async () => {
    const client = await connect(url, { tasks: true });
    try {
      const res = await client.runTool('route', { tenant: 'Zürich', shard: 3, dryRun: false });
      expect(res.content).toEqual([{ type: 'text', text: 'tenant=Zürich shard=3 dryRun=false' }]);
    } finally {
      await client.close();
    }
  });

  it('the 2025 wire has no such headers: a 2025-11-25 call is not checked', async () => {
    const res = await post(url, request('tools/call', { name: 'route', arguments: { tenant: 'acme' } }), {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-param-tenant-id': 'globex',
    });
    expect(res.body.result.content[0].text).toBe('tenant=acme shard=undefined dryRun=undefined');
  });
});

describe('Mcp-Param-* through a gateway', () => {
  let upstream: INestApplication;
  let gateway: INestApplication;

  beforeAll(async () => {
    upstream = await createRoutingApp();
    gateway = await createGatewayApp([{ name: 'up', url: urlOf(upstream).href }]);
    await until('the upstream tools listed', async () => {
      const res = await post(urlOf(gateway), request('tools/list', { _meta: ENVELOPE }), LIST_HEADERS);
      return res.body.result?.tools?.some((t: { name: string }) => t.name === 'up_route');
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("forwards a call with the upstream tool's Mcp-Param-* headers, which the upstream checks", async () => {
    const res = await call(gateway, 'up_route', { tenant: 'Zürich', shard: 5 });
    expect(res.body.result?.content).toEqual([{ type: 'text', text: 'tenant=Zürich shard=5 dryRun=undefined' }]);
  });
});

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const LIST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': VERSION,
  'mcp-method': 'tools/list',
};

class Nested {
  @McpHeader('Inner')
  @IsString()
  id!: string;
}

class NestedDto {
  @ValidateNested()
  @Type(() => Nested)
  inner!: Nested;
}

class NumberDto {
  @McpHeader('Ratio')
  @IsNumber()
  ratio!: number;
}

class TwiceDto {
  @McpHeader('Region')
  @IsString()
  a!: string;

  @McpHeader('REGION')
  @IsString()
  b!: string;
}

class BadNameDto {
  @McpHeader('Tenant Id')
  @IsString()
  tenant!: string;
}

class UntypedDto {
  @McpHeader('Anything')
  anything!: unknown;
}

const toolsOf = (input: new (...args: any[]) => object) => {
  @Injectable()
  class BadTools {
    @McpTool({ name: 'bad', description: 'Never starts.', input })
    bad(): string {
      return 'never';
    }
  }
  return BadTools;
};

describe('@McpHeader rules are checked at startup', () => {
  it.each([
    ['a nested DTO (a $ref)', NestedDto, /tool "bad", property "id": .*top-level/],
    ['a number', NumberDto, /tool "bad", property "ratio": .*not type number/],
    ['two names that differ in case only', TwiceDto, /tool "bad", property "b": .*"REGION" repeats .* "a"/],
    ['a name that is no HTTP token', BadNameDto, /tool "bad", property "tenant": .*"Tenant Id" is not an HTTP token/],
    ['a property without a type', UntypedDto, /tool "bad", property "anything": .*is missing from the schema/],
  ])('refuses %s', async (_what, dto, message) => {
    await expect(createRoutingApp(toolsOf(dto))).rejects.toThrow(message);
  });
});
