import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type ApplicationInputHandler,
  type JsonRpcResponse,
  type RawClientDispatch,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';
import { realmFetch } from '@mcp-tasks/client';
import { AppModule } from '../../src/app.module.js';

export const PROTOCOL_VERSION = '2026-07-28';

/** Starts the demo AppModule on an ephemeral 127.0.0.1 port; returns the app and its /mcp URL. */
export async function startDemo(): Promise<{ app: INestApplication; url: URL }> {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { app, url: new URL(`http://127.0.0.1:${address.port}/mcp`) };
}

/** One line of the raw-dispatch wire log (kept for assertions and failure messages). */
export interface WireEntry {
  method: string;
  mcpName?: string;
  status: number;
  request: unknown;
  response: unknown;
}

interface JsonRpcMessage {
  id?: string | number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** Reads one JSON-RPC response from a JSON or SSE body, picking the message whose id matches. */
async function readResponse(res: Response, id: string): Promise<JsonRpcMessage | undefined> {
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    const text = await res.text();
    let found: JsonRpcMessage | undefined;
    for (const block of text.split(/\r?\n\r?\n/)) {
      const data = block
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (!data) continue;
      const msg = JSON.parse(data) as JsonRpcMessage;
      if (msg.id === id) found = msg;
    }
    return found;
  }
  if (type.startsWith('application/json')) return JSON.parse(await res.text()) as JsonRpcMessage;
  return undefined;
}

// The jest-realm JSON workaround now lives in the client library (its transport needs it too).
export { realmFetch };

/**
 * The host-owned raw request path ext-tasks needs for 2026-07-28 task traffic: it POSTs the
 * `{method, params}` it is given with a JSON-RPC envelope and the standard headers, and returns
 * `{kind:'result'}` / `{kind:'error'}`. Every exchange is appended to `wire`.
 */
export function createRawDispatch(url: URL, wire: WireEntry[] = []): RawClientDispatch {
  let nextId = 1;
  return async (request, options) => {
    const id = `raw-${nextId++}`;
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
      'mcp-method': method,
      ...(method === 'tools/call' && typeof params?.name === 'string' ? { 'mcp-name': params.name } : {}),
      // tasks/* follow-ups arrive with {"Mcp-Name": taskId} here.
      ...options?.context?.headers,
    };
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, ...(request as object) }),
      signal: options?.signal,
    });
    const msg = await readResponse(res, id);
    const mcpName = Object.entries(headers).find(([k]) => k.toLowerCase() === 'mcp-name')?.[1];
    wire.push({ method, mcpName, status: res.status, request, response: msg });
    if (!msg)
      throw new Error(
        `${method}: HTTP ${res.status} with no JSON-RPC response (content-type ${res.headers.get('content-type')})`,
      );
    return (
      msg.error ? { kind: 'error', error: msg.error } : { kind: 'result', result: msg.result }
    ) as JsonRpcResponse;
  };
}

export interface TasksClient {
  client: Client;
  session: TaskEnabledSession;
  wire: WireEntry[];
  close(): Promise<void>;
}

/** A modern (2026-07-28) Client plus an ext-tasks session driven over `createRawDispatch`. */
export async function connectTasksClient(
  url: URL,
  onInputRequest?: ApplicationInputHandler['handle'],
): Promise<TasksClient> {
  const clientInfo = { name: 'official-client-e2e', version: '0.0.0' };
  const clientCapabilities = { elicitation: { form: {} } };
  const client = new Client(clientInfo, { capabilities: clientCapabilities, versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: realmFetch }));
  const wire: WireEntry[] = [];
  const session = createTaskSessionFromClient(client, {
    endpointId: `e2e-${url.port}`,
    rawDispatch: createRawDispatch(url, wire),
    v2RequestFraming: { protocolVersion: PROTOCOL_VERSION, clientInfo, clientCapabilities },
    onInputRequest,
  });
  return {
    client,
    session,
    wire,
    async close() {
      await session.close();
      await client.close();
    },
  };
}

/** A modern Client without the Tasks extension (no ext-tasks session). */
export async function connectModernClient(url: URL): Promise<Client> {
  const client = new Client(
    { name: 'official-client-e2e-plain', version: '0.0.0' },
    { capabilities: {}, versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: realmFetch }));
  return client;
}

/** A 2025-11-25 Client: default options, so `connect()` performs `initialize`. */
export async function connectLegacyClient(
  url: URL,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'official-client-e2e-legacy', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(url, { fetch: realmFetch });
  await client.connect(transport);
  return { client, transport };
}

/** The text of every text block of a CallToolResult-like value. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] } | undefined)?.content ?? [];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}
