import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '../common/principal.interface.js';
import type { McpServerIdentity } from '../options/mcp-tasks-options.interface.js';
import type { McpUpstreamTool } from '../options/mcp-upstream-options.interface.js';
import type { UpstreamClient, UpstreamClientApi, UpstreamListenStream, UpstreamTask } from './upstream-client.api.js';
import { tokenFor, type UpstreamConfig } from './upstream.config.js';
import { readUpstreamTools } from './upstream-tools.reader.js';
import { isUpstreamRpcError, UpstreamUnreachableError } from './upstream-unreachable.error.js';

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/** What a request is sent for: the caller (its token), and what to declare and carry. */
export interface UpstreamCallOptions {
  principal?: Principal;
  capabilities?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  signal?: AbortSignal;
}

/**
 * One upstream server: connected in the background (an upstream down at startup is retried with backoff, doubling
 * from 0.5 s to 10 s), its served tools read on connect, every `toolsTtl` and on `tools/list_changed`, and the
 * requests the gateway makes of it. A failure that is not a JSON-RPC error becomes `UpstreamUnreachableError`.
 */
export class UpstreamConnection {
  private readonly logger = new Logger('McpTasks');
  private client?: UpstreamClient;
  private tools: McpUpstreamTool[] = [];
  private refresher?: NodeJS.Timeout;
  private connecting = false;
  private closed = false;

  constructor(
    readonly config: UpstreamConfig,
    private readonly api: UpstreamClientApi,
    private readonly identity: McpServerIdentity,
    /** Told whenever the served tool list was read again. */
    private readonly onTools: () => void,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** The upstream tools served (its own names), as last read. */
  get served(): readonly McpUpstreamTool[] {
    return this.tools;
  }

  /** Whether it speaks only a 2025 revision (synchronous tools); `undefined` until connected. */
  get legacy(): boolean | undefined {
    return this.client?.legacy;
  }

  start(): void {
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.refresher);
    await this.client?.close().catch(() => undefined);
  }

  /** One raw request on the 2026-07-28 wire (see `McpTasksClient.request`). */
  async request(method: string, params: Record<string, unknown>, o: UpstreamCallOptions = {}): Promise<any> {
    const client = this.modern();
    const token = await tokenFor(this.config.auth, o.principal);
    const signal = this.deadline(o.signal);
    try {
      return await client.request(method, params, { token, capabilities: o.capabilities, meta: o.meta, signal });
    } catch (err) {
      throw this.failure(err, o.signal);
    }
  }

  /** `tools/call` on a 2025-era upstream (through the SDK session; a per-caller token gets a connection of its own). */
  async callLegacy(name: string, args: Record<string, unknown>, o: UpstreamCallOptions): Promise<any> {
    const shared = this.client;
    if (!shared) throw new UpstreamUnreachableError(this.name, 'not connected');
    const perCaller = this.config.auth.type === 'exchange';
    let client = shared;
    try {
      if (perCaller) client = await this.api.connect(this.config.url, await this.connectOptions(o.principal, 'only'));
      return await client.sdk.callTool({ name, arguments: args }, { signal: o.signal, timeout: this.config.timeout });
    } catch (err) {
      // A 2025-era session does not outlive an upstream restart: connect again.
      if (!isUpstreamRpcError(err) && !perCaller) this.reconnect(shared);
      throw this.failure(err, o.signal);
    } finally {
      if (client !== shared) await client.close().catch(() => undefined);
    }
  }

  /** Listens to upstream tasks on a stream of its own. */
  async listen(
    taskIds: string[],
    onTask: (task: UpstreamTask) => void,
    o: UpstreamCallOptions,
  ): Promise<UpstreamListenStream> {
    const client = this.modern();
    try {
      return await client.listenTasks(taskIds, onTask, {
        token: await tokenFor(this.config.auth, o.principal),
        signal: o.signal,
      });
    } catch (err) {
      throw this.failure(err, o.signal);
    }
  }

  private modern(): UpstreamClient {
    if (!this.client) throw new UpstreamUnreachableError(this.name, 'not connected');
    if (this.client.legacy) throw new UpstreamUnreachableError(this.name, 'it speaks a 2025 revision only');
    return this.client;
  }

  private async connect(): Promise<void> {
    if (this.connecting) return;
    this.connecting = true;
    try {
      for (let delay = FIRST_RETRY_MS, attempt = 1; !this.closed; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
        try {
          await this.open();
          return;
        } catch (err) {
          if (attempt++ % 10 === 1) this.logger.warn(`upstream "${this.name}" not reachable: ${describe(err)}`);
          await sleep(delay);
        }
      }
    } finally {
      this.connecting = false;
    }
  }

  private async open(): Promise<void> {
    const client = await this.api.connect(this.config.url, await this.connectOptions(undefined, 'fallback'));
    if (this.closed) {
      await client.close();
      return;
    }
    try {
      this.tools = await this.read(client);
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    this.client = client;
    this.onTools();
    this.logger.log(`upstream "${this.name}" connected: ${this.tools.length} tools served`);
    clearInterval(this.refresher);
    this.refresher = setInterval(() => void this.refresh(), this.config.toolsTtl);
    this.refresher.unref();
  }

  private async connectOptions(principal: Principal | undefined, legacy: 'fallback' | 'only') {
    const refresh = legacy === 'fallback' ? () => void this.refresh() : undefined;
    return {
      tasks: true,
      legacy,
      token: await tokenFor(this.config.auth, principal),
      clientInfo: { name: this.identity.name, version: this.identity.version },
      onToolsChanged: refresh,
    };
  }

  /** Reads the tool list again; an unreachable upstream keeps the last list and is connected again. */
  private async refresh(): Promise<void> {
    const client = this.client;
    if (!client || this.closed) return;
    try {
      this.tools = await this.read(client);
      this.onTools();
    } catch (err) {
      this.logger.warn(`upstream "${this.name}": tool list not read: ${describe(err)}`);
      if (!isUpstreamRpcError(err)) this.reconnect(client);
    }
  }

  private async read(client: UpstreamClient): Promise<McpUpstreamTool[]> {
    const token = await tokenFor(this.config.auth);
    const all = await readUpstreamTools(client, { token, signal: this.deadline() });
    return all.filter((tool) => {
      try {
        return this.config.serves(tool);
      } catch (err) {
        this.logger.warn(`upstream "${this.name}": the tools filter threw on ${tool.name}: ${describe(err)}`);
        return false;
      }
    });
  }

  private reconnect(stale: UpstreamClient): void {
    if (this.client !== stale || this.closed) return;
    this.client = undefined;
    clearInterval(this.refresher);
    void stale.close().catch(() => undefined);
    this.start();
  }

  private deadline(signal?: AbortSignal): AbortSignal {
    const timeout = AbortSignal.timeout(this.config.timeout);
    return signal ? AbortSignal.any([signal, timeout]) : timeout;
  }

  private failure(err: unknown, callerSignal?: AbortSignal): unknown {
    if (isUpstreamRpcError(err) || callerSignal?.aborted) return err;
    return new UpstreamUnreachableError(this.name, describe(err));
  }
}

const describe = (err: unknown): string => {
  const e = err as { message?: string; cause?: { message?: string } };
  return [e?.message ?? String(err), e?.cause?.message].filter(Boolean).join(': ');
};
