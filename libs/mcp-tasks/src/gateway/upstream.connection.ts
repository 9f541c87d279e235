import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '../common/principal.interface.js';
import type { McpServerIdentity } from '../options/mcp-tasks-options.interface.js';
import type { UpstreamClient, UpstreamClientApi, UpstreamListenStream, UpstreamTask } from './upstream-client.api.js';
import { tokenFor, type UpstreamConfig } from './upstream.config.js';
import { describeFailure, upstreamFailure } from './upstream-failure.classifier.js';
import { UpstreamDeadline } from './upstream-deadline.js';
import { UpstreamSessionHolder } from './upstream-session.holder.js';
import type { UpstreamFeatures } from './upstream-features.reader.js';
import { forwardsToLegacy, legacyRequest } from './upstream-legacy.request.js';
import { UpstreamLists } from './upstream-lists.js';
import type { UpstreamToolEntry } from './upstream-tools.reader.js';
import { UpstreamUnreachableError } from './upstream-unreachable.error.js';

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/** What a request is sent for: the caller (its token), and what to declare and carry. */
export interface UpstreamCallOptions {
  principal?: Principal;
  capabilities?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  signal?: AbortSignal;
  /** A `tools/call`'s tool schema as listed (its `x-mcp-header` arguments go in headers). */
  inputSchema?: Record<string, unknown>;
}

/**
 * One upstream server: connected in the background (an upstream down at startup is retried with backoff, doubling
 * from 0.5 s to 10 s), its served tools read on connect, every `toolsTtl` and on `tools/list_changed`, and the
 * requests the gateway makes of it. Every failure becomes `UpstreamAnsweredError` (a JSON-RPC error the upstream
 * sent) or `UpstreamUnreachableError` (see `upstreamFailure`). A connection that failed (anything but a request
 * running out of time) is opened again: by the backoff, and at once by the next request, which waits for it.
 */
export class UpstreamConnection {
  private readonly logger = new Logger('McpTasks');
  private readonly sessions: UpstreamSessionHolder;
  private readonly lists: UpstreamLists;
  private refresher?: NodeJS.Timeout;
  private retrying = false;

  constructor(
    readonly config: UpstreamConfig,
    private readonly api: UpstreamClientApi,
    private readonly identity: McpServerIdentity,
    /** Told whenever the served tool list was read again. */
    private readonly onTools: () => void,
  ) {
    this.sessions = new UpstreamSessionHolder(() => this.open());
    this.lists = new UpstreamLists(config, this.logger);
  }

  get name(): string {
    return this.config.name;
  }

  /** The upstream tools served (its own names), with their task policies, as last read. */
  get served(): readonly UpstreamToolEntry[] {
    return this.lists.served;
  }

  /** Its resources, resource templates and prompts (its own URIs and names), as last read. */
  get features(): UpstreamFeatures {
    return this.lists.features;
  }

  start(): void {
    void this.retry();
  }

  async close(): Promise<void> {
    clearInterval(this.refresher);
    await this.sessions.close();
  }

  /** `tools/call`: raw on the 2026-07-28 wire, through the SDK session on a 2025-era upstream. */
  callTool(params: Record<string, unknown>, o: UpstreamCallOptions): Promise<any> {
    return this.request('tools/call', params, o);
  }

  /**
   * One raw request on the 2026-07-28 wire (see `McpTasksClient.request`); on a 2025-era upstream, the SDK call
   * of a method that era has (`forwardsToLegacy`: tools, reads, prompts, completions), anything else unreachable.
   */
  async request(method: string, params: Record<string, unknown>, o: UpstreamCallOptions = {}): Promise<any> {
    const deadline = new UpstreamDeadline(this.config.timeout, o.signal);
    try {
      const client = await this.ready(deadline.signal);
      if (!client.legacy) return await this.send(client, method, params, o, deadline.signal);
      if (!forwardsToLegacy(method)) throw new UpstreamUnreachableError(this.name, 'it speaks a 2025 revision only');
      return await this.callLegacy(client, method, params, o, deadline.signal);
    } finally {
      deadline.release();
    }
  }

  /** Listens to upstream tasks on a stream of its own; waiting for the acknowledgement at most `timeout`. */
  async listen(
    taskIds: string[],
    onTask: (task: UpstreamTask) => void,
    o: UpstreamCallOptions,
  ): Promise<UpstreamListenStream> {
    const opening = new AbortController();
    const timer = setTimeout(() => opening.abort(), this.config.timeout);
    const signal = o.signal ? AbortSignal.any([o.signal, opening.signal]) : opening.signal;
    try {
      const client = await this.ready(signal);
      if (client.legacy) throw new UpstreamUnreachableError(this.name, 'it speaks a 2025 revision only');
      const token = await tokenFor(this.config.auth, o.principal);
      return await client.listenTasks(taskIds, onTask, { token, signal });
    } catch (err) {
      throw this.failure(err, o.signal, opening.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  private async send(
    client: UpstreamClient,
    method: string,
    params: Record<string, unknown>,
    o: UpstreamCallOptions,
    signal: AbortSignal,
  ): Promise<any> {
    const token = await tokenFor(this.config.auth, o.principal);
    try {
      const { capabilities, meta, inputSchema } = o;
      return await client.request(method, params, { token, capabilities, meta, signal, inputSchema });
    } catch (err) {
      throw this.failure(err, o.signal, signal);
    }
  }

  /** On the shared session; a per-caller token (`exchange`) gets a connection of its own. */
  private async callLegacy(
    shared: UpstreamClient,
    method: string,
    params: Record<string, unknown>,
    o: UpstreamCallOptions,
    deadline: AbortSignal,
  ): Promise<any> {
    const perCaller = this.config.auth.type === 'exchange';
    const release = perCaller ? () => undefined : this.sessions.use(shared);
    let client = shared;
    try {
      if (perCaller) client = await this.api.connect(this.config.url, await this.connectOptions(o.principal, 'only'));
      return await legacyRequest(client, method, params, { signal: deadline, timeout: this.config.timeout });
    } catch (err) {
      const failure = this.failure(err, o.signal, deadline);
      // A 2025-era session does not outlive an upstream restart or a broken connection: open another.
      if (!perCaller) this.dropIfBroken(shared, failure);
      throw failure;
    } finally {
      release();
      if (client !== shared) await client.close().catch(() => undefined);
    }
  }

  /** The connection; while there is none, the attempt to open one (started now if none runs), until `deadline`. */
  private async ready(deadline: AbortSignal): Promise<UpstreamClient> {
    const client = this.sessions.current ?? (await this.sessions.opened(deadline));
    if (!client) throw new UpstreamUnreachableError(this.name, 'not connected', deadline.aborted);
    return client;
  }

  /** Connects, retrying with backoff until connected (by this loop or by a request meanwhile) or closed. */
  private async retry(): Promise<void> {
    if (this.retrying) return;
    this.retrying = true;
    try {
      for (let delay = FIRST_RETRY_MS, n = 1; !this.sessions.closed; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
        const outcome = await this.sessions.attempt();
        if (!('error' in outcome)) return;
        if (n++ % 10 === 1)
          this.logger.warn(`upstream "${this.name}" not reachable: ${describeFailure(outcome.error)}`);
        await sleep(delay);
        if (this.sessions.current) return;
      }
    } finally {
      this.retrying = false;
    }
  }

  /** One attempt: connects, reads the tool list (and resources, prompts), then serves requests from it. */
  private async open(): Promise<UpstreamClient> {
    const client = await this.api.connect(this.config.url, await this.connectOptions(undefined, 'fallback'));
    try {
      await this.lists.read(client, this.deadline());
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    this.onTools();
    this.logger.log(`upstream "${this.name}" connected: ${this.served.length} tools served`);
    clearInterval(this.refresher);
    if (this.sessions.closed) return client;
    this.refresher = setInterval(() => void this.refresh(), this.config.toolsTtl);
    this.refresher.unref();
    return client;
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

  /** Reads the lists again; an unreachable upstream keeps the last ones and is connected again. */
  private async refresh(): Promise<void> {
    const client = this.sessions.current;
    if (!client) return;
    const release = this.sessions.use(client);
    const deadline = this.deadline();
    try {
      await this.lists.read(client, deadline);
      this.onTools();
    } catch (err) {
      this.logger.warn(`upstream "${this.name}": tool list not read: ${describeFailure(err)}`);
      this.dropIfBroken(client, this.failure(err, undefined, deadline));
    } finally {
      release();
    }
  }

  /** A connection that failed (not a request that only ran out of time) is replaced: at once, and by the backoff. */
  private dropIfBroken(client: UpstreamClient, failure: unknown): void {
    if (!(failure instanceof UpstreamUnreachableError) || failure.timedOut) return;
    if (!this.sessions.drop(client)) return;
    clearInterval(this.refresher);
    this.start();
  }

  private deadline(signal?: AbortSignal): AbortSignal {
    const timeout = AbortSignal.timeout(this.config.timeout);
    return signal ? AbortSignal.any([signal, timeout]) : timeout;
  }

  /** The caller's own abort passes as it is (nobody waits for an answer); anything else is classified. */
  private failure(err: unknown, callerSignal?: AbortSignal, deadline?: AbortSignal): unknown {
    if (callerSignal?.aborted) return err;
    return upstreamFailure(this.name, err, this.api, deadline?.aborted === true);
  }
}
