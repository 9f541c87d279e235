import { describe, expect, it } from '@jest/globals';
import type { Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { LEGACY_PROTOCOL_VERSION } from '../mcp-tasks.constants.js';
import { McpTasksModule } from '../mcp-tasks.module.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { RpcError } from '../protocol/rpc.error.js';
import { NoopTracing } from '../telemetry/noop.tracing.js';
import type { LegacyExchange } from './legacy-exchange.js';
import { LEGACY_METHOD_HANDLERS, LEGACY_METHODS } from './legacy-methods.table.js';
import { LEGACY_DEFAULT_VERSION } from './legacy.constants.js';
import { LegacyRouter } from './legacy.router.js';

// Walks the table: each entry is routed to its handler behind its gate, reads the version as it says, and is
// answered as the 2025 era answers failures; a method anywhere but in the table is the SDK's.

const ENTRIES = [...LEGACY_METHODS];
const NOT_OURS = ['tools/list', 'ping', 'tasks/update', 'subscriptions/listen', 'toString', 'constructor', '__proto__'];

interface Probe {
  /** Headers of the request. */
  headers?: Record<string, string>;
  tasks?: boolean;
  /** What every handler's `offered()` says. */
  offered?: boolean;
  /** Handlers throw this instead of answering. */
  fails?: Error;
}

/** What the router did with `{ id: 7, method }`: left it to the SDK, or what was answered on the exchange. */
async function routed(method: unknown, probe: Probe = {}): Promise<unknown> {
  const handlers = (type: Type) => ({
    offered: () => probe.offered ?? true,
    serve: (req: { id: unknown; version: string }, x: LegacyExchange) => {
      if (probe.fails) throw probe.fails;
      x.reply(req.id as number).result({ answeredBy: type.name, version: req.version });
    },
  });
  const options = { tasks: probe.tasks ?? true, telemetry: false } as ResolvedOptions;
  const sessions = { of: () => undefined };
  const router = new LegacyRouter(
    options,
    sessions as never,
    {} as never,
    {} as never,
    {} as never,
    {} as never,
    {} as never,
    new NoopTracing(),
    { get: handlers } as unknown as ModuleRef,
  );
  router.onModuleInit();
  let answer: unknown;
  const reply = (id: unknown) => ({
    result: (result: unknown) => void (answer = { id, result }),
    error: (e: RpcError) => void (answer = { id, error: e.toJSON(), status: e.httpStatus }),
  });
  const x = {
    req: { method: 'POST', headers: probe.headers ?? {} },
    body: { jsonrpc: '2.0', id: 7, method, params: { taskId: 't' } },
    principal: { key: 'k' },
    reply,
  } as unknown as LegacyExchange;
  try {
    return (await router.serve(x)) ? answer : 'left to the SDK';
  } catch (err) {
    return { thrown: (err as RpcError).toJSON(), status: (err as RpcError).httpStatus };
  }
}

const AT_2025_11_25 = { 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };

describe('the 2025-era method table', () => {
  it.each(ENTRIES)('%s: routed to the handler its entry names, with the version it speaks', async (method, entry) => {
    // The one that settles the version has its header unread: no session, so the era's default until it settles.
    const version = entry.settlesVersion ? LEGACY_DEFAULT_VERSION : LEGACY_PROTOCOL_VERSION;
    expect(await routed(method, { headers: AT_2025_11_25 })).toEqual({
      id: 7,
      result: { answeredBy: entry.handler.name, version },
    });
  });

  it.each(ENTRIES)('%s: behind its gate (tasks on, at 2025-11-25), and only when offered', async (method, entry) => {
    const older = await routed(method, { headers: { 'mcp-protocol-version': '2025-06-18' } });
    const off = await routed(method, { headers: AT_2025_11_25, tasks: false });
    if (entry.gate === 'tasks') {
      expect(older).toBe('left to the SDK');
      expect(off).toBe('left to the SDK');
    } else {
      expect(older).toMatchObject({ result: { answeredBy: entry.handler.name } });
      expect(off).toMatchObject({ result: { answeredBy: entry.handler.name } });
    }
    expect(await routed(method, { headers: AT_2025_11_25, offered: false })).toBe('left to the SDK');
  });

  it.each(ENTRIES)('%s: an unsupported version header is refused (400) unless it settles the version', async (m, e) => {
    const answer = await routed(m, { headers: { 'mcp-protocol-version': '1999-01-01' } });
    if (e.settlesVersion) expect(answer).toMatchObject({ result: { answeredBy: e.handler.name } });
    else expect(answer).toMatchObject({ thrown: { code: -32000 }, status: 400 });
  });

  it.each(ENTRIES)('%s: what its handler throws is answered as that era does (on a 200)', async (method) => {
    expect(await routed(method, { headers: AT_2025_11_25, fails: new Error('secret') })).toEqual({
      id: 7,
      error: { code: -32603, message: 'Internal error' },
      status: 200,
    });
  });

  it.each([...NOT_OURS, 42])('%s: not in the table, so left to the SDK', async (method) => {
    expect(await routed(method, { headers: AT_2025_11_25 })).toBe('left to the SDK');
  });

  it("a registration provides every entry's handler, and its router finds each at init", async () => {
    const ref = await Test.createTestingModule({
      imports: [McpTasksModule.forRoot({ server: { name: 'table', version: '1' } })],
    }).compile();
    await ref.init();
    try {
      for (const handler of LEGACY_METHOD_HANDLERS) expect(ref.get(handler)).toBeInstanceOf(handler);
      expect(ref.get(LegacyRouter)).toBeInstanceOf(LegacyRouter);
    } finally {
      await ref.close();
    }
  });
});
