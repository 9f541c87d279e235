import { describe, expect, it } from '@jest/globals';
import type { Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkStandardHeaders } from '../http/standard-headers.check.js';
import { McpFastPath } from '../http/fast-path.listener.js';
import { MODERN_PROTOCOL_VERSION, RpcCode, TASKS_EXTENSION } from '../mcp-tasks.constants.js';
import { McpTasksModule } from '../mcp-tasks.module.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import { NoopTracing } from '../telemetry/noop.tracing.js';
import type { McpTracing, SpanSpec } from '../telemetry/tracing.js';
import type { McpRequest } from './mcp-request.interface.js';
import { McpDispatcher } from './mcp.dispatcher.js';
import { handlerOf, MCP_METHODS, METHOD_HANDLERS, ownedMethod, type McpMethod } from './methods.table.js';

// Walks the table: each entry is taken by the fast path, owned by the endpoint, header-checked and dispatched as
// the entry says, so a method that lives anywhere but in the table (or an entry one reader ignores) fails here.

const ENTRIES = [...MCP_METHODS];
/** Names the table must not answer: a 2025-only method, SDK methods, and keys every plain object has. */
const NOT_OURS = ['tasks/list', 'tasks/result', 'tools/list', 'initialize', 'toString', 'constructor', '__proto__'];
const DECLARED = { extensions: { [TASKS_EXTENSION]: {} } };

const options = (o: Partial<ResolvedOptions> = {}) => ({ tasks: true, telemetry: false, ...o }) as ResolvedOptions;
const request = (method: string, clientCapabilities: object = DECLARED) =>
  ({ id: 1, method, params: { taskId: 't', name: 'n' }, clientCapabilities }) as unknown as McpRequest;

/** What went through the fast path (the endpoint) and what the app's own listener got, per request. */
async function fastPath(): Promise<(method: string) => 'fast path' | 'app'> {
  const server = new EventEmitter();
  let took: 'fast path' | 'app' | undefined;
  server.on('request', () => (took = 'app'));
  const adapterHost = {
    httpAdapter: { getHttpServer: () => server, getType: () => 'express', getInstance: () => ({}) },
  };
  const exchange = { handle: () => Promise.resolve(void (took = 'fast path')) };
  const listener = new McpFastPath(
    options({ fastPath: true }),
    adapterHost as never,
    { paths: ['/mcp'] } as never,
    exchange as never,
  );
  listener.onApplicationBootstrap();
  return (method) => {
    took = undefined;
    const headers = { 'mcp-method': method, 'content-type': 'application/json' };
    server.emit('request', { method: 'POST', url: '/mcp', headers } as unknown as IncomingMessage, {});
    return took!;
  };
}

/** A dispatcher whose handlers say who they are: each answers with (or streams) its class's name. */
function dispatcher(o: Partial<ResolvedOptions> = {}, tracing: McpTracing = new NoopTracing()): McpDispatcher {
  const ref = {
    get: (type: Type) => ({
      handle: () => Promise.resolve({ answeredBy: type.name }),
      stream: (_: McpRequest, res: { answeredBy?: string }) => Promise.resolve(void (res.answeredBy = type.name)),
    }),
  };
  const d = new McpDispatcher(options(o), tracing, ref as unknown as ModuleRef);
  d.onModuleInit();
  return d;
}

/** What the dispatcher answered for `req`: the handler's name, or the JSON-RPC error. */
async function dispatched(d: McpDispatcher, entry: McpMethod, req: McpRequest): Promise<unknown> {
  try {
    if ('answers' in entry) return ((await d.dispatch(req)) as { answeredBy: string }).answeredBy;
    const res: { answeredBy?: string } = {};
    await d.stream(req, res as unknown as ServerResponse);
    return res.answeredBy;
  } catch (err) {
    return err instanceof RpcError ? { code: err.code, status: err.httpStatus } : err;
  }
}

function headerCheck(method: string, params: Record<string, unknown>, name?: string): unknown {
  const headers = {
    'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
  try {
    checkStandardHeaders(method, params, MODERN_PROTOCOL_VERSION, headers);
    return 'passed';
  } catch (err) {
    return { code: (err as RpcError).code, message: (err as RpcError).message };
  }
}

describe('the 2026-07-28 method table', () => {
  it.each(ENTRIES)('%s: the fast path takes it unless only some of its requests are ours', async (method, entry) => {
    expect((await fastPath())(method)).toBe(entry.claims ? 'app' : 'fast path');
  });

  it.each(ENTRIES)('%s: the endpoint owns the requests its entry claims', (method, entry) => {
    const listen = { notifications: { taskIds: ['t'] } };
    expect(ownedMethod(method, listen, options())).toBe(entry);
    if (entry.claims) {
      expect(ownedMethod(method, {}, options())).toBeUndefined();
      expect(ownedMethod(method, listen, options({ tasks: false }))).toBeUndefined();
    } else expect(ownedMethod(method, {}, options({ tasks: false }))).toBe(entry);
  });

  it.each(ENTRIES)('%s: Mcp-Name must repeat the param its entry names, and only then', (method, entry) => {
    const param = entry.nameParam;
    if (!param) {
      expect(headerCheck(method, {})).toBe('passed');
      return;
    }
    expect(headerCheck(method, { [param]: 'a' })).toEqual({
      code: RpcCode.HeaderMismatch,
      message: `Bad Request: the required Mcp-Name header is absent (params.${param})`,
    });
    expect(headerCheck(method, { [param]: 'a' }, 'b')).toEqual({
      code: RpcCode.HeaderMismatch,
      message: `Bad Request: Mcp-Name does not match params.${param}`,
    });
    expect(headerCheck(method, { [param]: 'a' }, 'a')).toBe('passed');
  });

  it.each(ENTRIES)('%s: dispatched to the handler its entry names, past its gate', async (method, entry) => {
    const name = handlerOf(entry).name;
    expect(await dispatched(dispatcher(), entry, request(method))).toBe(name);
    const off = await dispatched(dispatcher({ tasks: false }), entry, request(method));
    const undeclared = await dispatched(dispatcher(), entry, request(method, {}));
    if (entry.gate === 'tasks') {
      expect(off).toEqual({ code: RpcCode.MethodNotFound, status: 404 });
      expect(undeclared).toEqual({ code: RpcCode.MissingCapability, status: 400 });
    } else {
      expect(off).toBe(name);
      expect(undeclared).toBe(name);
    }
  });

  it.each(ENTRIES)('%s: in a light span of its own when its entry asks for one (telemetry on)', async (method, e) => {
    const spans: string[] = [];
    const tracing = Object.assign(new NoopTracing(), {
      inSpan: <T>(spec: SpanSpec, parent: unknown, fn: (...a: never[]) => Promise<T>) => {
        spans.push(spec.name);
        return fn();
      },
    });
    expect(await dispatched(dispatcher({ telemetry: true } as never, tracing), e, request(method))).toBe(
      handlerOf(e).name,
    );
    expect(spans).toEqual(e.span ? [method] : []);
  });

  it.each(NOT_OURS)('%s: not in the table, so not taken, owned, header-checked or dispatched', async (method) => {
    expect((await fastPath())(method)).toBe('app');
    expect(ownedMethod(method, {}, options())).toBeUndefined();
    expect(headerCheck(method, {})).toBe('passed');
    await expect(dispatcher().dispatch(request(method))).rejects.toMatchObject({ code: RpcCode.MethodNotFound });
  });

  it("a registration provides every entry's handler, and its dispatcher finds each at init", async () => {
    const ref = await Test.createTestingModule({
      imports: [McpTasksModule.forRoot({ server: { name: 'table', version: '1' } })],
    }).compile();
    await ref.init();
    try {
      for (const handler of METHOD_HANDLERS) expect(ref.get(handler)).toBeInstanceOf(handler);
      const real = ref.get(McpDispatcher);
      // A real handler answers: an unknown task is the one "not found" answer, not a missing route.
      await expect(real.dispatch({ ...request('tasks/get'), principal: { key: 'k' } } as McpRequest)).rejects.toEqual(
        RpcError.taskNotFound(),
      );
    } finally {
      await ref.close();
    }
  });
});
