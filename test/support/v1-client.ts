import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { realmFetch } from '@mcp-tasks/client';

export interface V1Connection {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

export interface V1Options {
  /** Client capabilities (`elicitation`, `sampling`, `roots`). */
  capabilities?: ClientCapabilities;
  /** A bearer token sent on every request (GET stream included). */
  token?: string;
  /** The fetch the transport uses (default: the client library's jest-realm-safe fetch). */
  fetch?: typeof fetch;
  name?: string;
  /**
   * The revision `initialize` asks for (default: the SDK's latest, 2025-11-25). The v1 client cannot be told, so
   * the request's body is rewritten on its way; the client then speaks what the server answered.
   */
  protocolVersion?: string;
}

/**
 * The official v1 TypeScript SDK client (`@modelcontextprotocol/sdk` 1.x), as deployed 2025-11-25 clients run it:
 * `connect()` initializes, opens the session's GET stream, and tasks go through `client.experimental.tasks`.
 */
export async function connectV1(url: URL, o: V1Options = {}): Promise<V1Connection> {
  const client = new Client({ name: o.name ?? 'v1-e2e', version: '0.0.0' }, { capabilities: o.capabilities ?? {} });
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: o.protocolVersion ? asking(o.protocolVersion, o.fetch ?? realmFetch) : (o.fetch ?? realmFetch),
    ...(o.token ? { requestInit: { headers: { authorization: `Bearer ${o.token}` } } } : {}),
  });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

/** `send`, with an `initialize` body asking for `version`. */
function asking(version: string, send: typeof fetch): typeof fetch {
  return (input, init) => {
    if (typeof init?.body !== 'string' || !init.body.includes('"initialize"')) return send(input, init);
    const message = JSON.parse(init.body) as { method?: string; params?: Record<string, unknown> };
    if (message.method !== 'initialize') return send(input, init);
    const body = JSON.stringify({ ...message, params: { ...message.params, protocolVersion: version } });
    return send(input, { ...init, body });
  };
}

/** Drains a `callToolStream`, returning every message it yielded. */
export async function drain<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const message of stream) out.push(message);
  return out;
}

/** The JSON-RPC error code of a rejection (McpError and friends). */
export const codeOf = (err: unknown): number | undefined => (err as { code?: number } | undefined)?.code;
