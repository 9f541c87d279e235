import { loadPeer } from '../peers/optional-peer.js';

/*
 * What the gateway uses of `@mcp-tasks/client` (an optional peer, loaded only when `upstreams` is set), written out
 * here so the library's types never name the package: an app without it still compiles.
 */

/** A task as an upstream reports it. */
export interface UpstreamTask {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface UpstreamListenStream {
  readonly acknowledged: string[];
  readonly closed: Promise<void>;
  close(): void;
}

export interface UpstreamRequestOptions {
  token?: string;
  capabilities?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  signal?: AbortSignal;
  /** A `tools/call`'s tool schema, for its `Mcp-Param-*` headers (an older client reads its own list instead). */
  inputSchema?: Record<string, unknown>;
}

/** How long the SDK waits (its own default would be 60 s whatever the upstream's `timeout`), and when to give up. */
export interface SdkRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
}

/** The SDK `Client` methods the gateway reads and forwards an upstream's resources, prompts and completions with. */
export type SdkFeatureMethod =
  'listResources' | 'listResourceTemplates' | 'listPrompts' | 'readResource' | 'getPrompt' | 'complete';

/** A connected `McpTasksClient`. */
export interface UpstreamClient {
  readonly legacy: boolean;
  /** The SDK's `Client`: how a 2025-era upstream is spoken to (`legacy`), each request a method of its own. */
  readonly sdk: {
    listTools(params?: Record<string, unknown>, options?: SdkRequestOptions): Promise<{ tools: unknown[] }>;
    callTool(
      params: { name: string; arguments: Record<string, unknown> },
      options: SdkRequestOptions,
    ): Promise<Record<string, unknown>>;
    getServerCapabilities(): Record<string, unknown> | undefined;
  } & Record<SdkFeatureMethod, (params: any, options: SdkRequestOptions) => Promise<Record<string, unknown>>>;
  request(method: string, params: Record<string, unknown>, options: UpstreamRequestOptions): Promise<any>;
  listenTasks(
    taskIds: string[],
    onTask: (task: UpstreamTask) => void,
    options: { token?: string; signal?: AbortSignal },
  ): Promise<UpstreamListenStream>;
  close(): Promise<void>;
}

export interface UpstreamConnectOptions {
  tasks: boolean;
  token?: string;
  clientInfo: { name: string; version: string };
  legacy: 'never' | 'fallback' | 'only';
  onToolsChanged?: () => void;
}

/** A class of error the package exports (told apart with `instanceof`; abstract ones included). */
export interface ErrorClass {
  [Symbol.hasInstance](value: unknown): boolean;
}

/** The package's entry, as far as the gateway needs it. */
export interface UpstreamClientApi {
  connect(url: string, options: UpstreamConnectOptions): Promise<UpstreamClient>;
  /** A JSON-RPC error response to a raw request (`code`, `message`, `data` as sent). */
  McpRpcError: ErrorClass;
  /** A 401/403 answer (newer clients); its `code`/`data` are those of the JSON-RPC error it carried, if any. */
  McpAuthError?: ErrorClass;
}

/** Loads `@mcp-tasks/client`, failing startup with what to install when it is missing. */
export async function loadUpstreamClient(): Promise<UpstreamClientApi> {
  const api = await loadPeer<UpstreamClientApi & { McpTasksClient?: { prototype: object } }>(
    '@mcp-tasks/client',
    'upstreams',
  );
  const request = (api.McpTasksClient?.prototype as { request?: unknown } | undefined)?.request;
  if (typeof request !== 'function' || typeof api.McpRpcError !== 'function')
    throw new Error(
      'McpTasksModule: upstreams need a newer @mcp-tasks/client (with McpTasksClient.request): update it',
    );
  return api;
}
