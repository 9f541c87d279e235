import type { UpstreamClient } from './upstream-client.api.js';

/** How one attempt to connect ended. */
export type ConnectOutcome = { client: UpstreamClient } | { error: unknown };

/**
 * The connection an upstream's requests go through, and the attempts to open it: one at a time, shared by every
 * request that waits meanwhile. A dropped connection stops taking requests at once but is closed only once the
 * requests still running on it are over, so one that failed does not take the others down with it.
 */
export class UpstreamSessionHolder {
  private client?: UpstreamClient;
  private pending?: Promise<ConnectOutcome>;
  private readonly uses = new Map<UpstreamClient, number>();
  private readonly dropped = new Set<UpstreamClient>();
  private ended = false;

  constructor(private readonly open: () => Promise<UpstreamClient>) {}

  /** The connection requests go through now, if any. */
  get current(): UpstreamClient | undefined {
    return this.client;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** An attempt to connect: the one under way, else one started now (settled at once when connected). */
  attempt(): Promise<ConnectOutcome> {
    if (this.client) return Promise.resolve({ client: this.client });
    this.pending ??= this.open()
      .then(async (client): Promise<ConnectOutcome> => {
        if (!this.ended) return { client: (this.client = client) };
        await client.close().catch(() => undefined);
        return { error: new Error('closed') };
      })
      .catch((error: unknown) => ({ error }))
      .finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** The connection once an attempt is over; `undefined` if it failed, or `signal` fired first. */
  async opened(signal: AbortSignal): Promise<UpstreamClient | undefined> {
    if (this.ended || signal.aborted) return undefined;
    const outcome = await within(this.attempt(), signal);
    return outcome && 'client' in outcome ? outcome.client : undefined;
  }

  /** Marks `client` as used by one request until the function returned is called. */
  use(client: UpstreamClient): () => void {
    this.uses.set(client, (this.uses.get(client) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.uses.get(client) ?? 1) - 1;
      if (left > 0) return void this.uses.set(client, left);
      this.uses.delete(client);
      if (this.dropped.delete(client)) void client.close().catch(() => undefined);
    };
  }

  /** Stops sending requests through `client`; whether it was the current one (false: dropped already). */
  drop(client: UpstreamClient): boolean {
    if (this.client !== client || this.ended) return false;
    this.client = undefined;
    if (this.uses.has(client)) this.dropped.add(client);
    else void client.close().catch(() => undefined);
    return true;
  }

  async close(): Promise<void> {
    this.ended = true;
    const all = [...this.dropped, ...(this.client ? [this.client] : [])];
    this.client = undefined;
    this.dropped.clear();
    await Promise.all(all.map((c) => c.close().catch(() => undefined)));
  }
}

/** `promise`'s value, or `undefined` once `signal` fires first. */
function within<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  return new Promise((resolve) => {
    const stop = () => resolve(undefined);
    signal.addEventListener('abort', stop, { once: true });
    void promise.then(resolve, stop).finally(() => signal.removeEventListener('abort', stop));
  });
}
