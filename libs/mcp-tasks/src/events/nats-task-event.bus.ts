import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ConnectionOptions, NatsConnection, Subscription } from 'nats';
import { BrokerTaskEventBus } from './broker-task-event.bus.js';
import type { NatsBusConnection, NatsBusConnectionOptions } from './nats-bus.connection.js';
import type { TaskEventBusHealth } from './task-event-bus.interface.js';

/** The `nats` package's `connect` (an optional peer, loaded by the bus factory). */
export type NatsConnect = (options: ConnectionOptions) => Promise<NatsConnection>;

export interface NatsBusOptions {
  /** A URL or options (the bus connects), or the app's connection (the bus only subscribes on it). */
  connection: string | NatsBusConnectionOptions | NatsBusConnection | NatsConnection;
  /** Subject prefix. Default `mcp-tasks`. */
  prefix?: string;
  /** How long a question's answer waits for the server's acknowledgement, in ms. Default 5000. */
  flushTimeout?: number;
}

/**
 * Relays task events between instances on core NATS: a subject per followed topic (`<prefix>.t.<topic as
 * base64url>`, so any topic is one safe token) and one every instance hears (`<prefix>.all`). The client re-sends
 * its subscriptions after a reconnect, and each follow's `onActive` comes again once they are in effect. A lost
 * message only delays: waiting runs re-read the store.
 */
export class NatsTaskEventBus extends BrokerTaskEventBus implements OnModuleInit, OnApplicationShutdown {
  protected readonly broadcast: string;
  private readonly prefix: string;
  private nc?: NatsConnection;
  private readonly subs = new Map<string, Subscription>();
  private up = false;
  /** Resolves with the connection once attached (round trips before then wait for it). */
  private readonly connection: Promise<NatsConnection>;
  private attached!: (nc: NatsConnection) => void;
  private stopped = false;

  constructor(
    private readonly connect: NatsConnect,
    private readonly options: NatsBusOptions,
  ) {
    super();
    this.prefix = options.prefix ?? 'mcp-tasks';
    this.broadcast = `${this.prefix}.all`;
    this.connection = new Promise((resolve) => (this.attached = resolve));
  }

  /** Connects in the background (retrying without limit): an instance starts while NATS is down, as on PostgreSQL. */
  async onModuleInit(): Promise<void> {
    const given = this.options.connection;
    if (isNatsConnection(given)) return this.attach(given as NatsConnection);
    const opened = this.connect({
      ...(typeof given === 'string' ? { servers: given.split(',') } : (given as ConnectionOptions)),
      maxReconnectAttempts: -1,
      waitOnFirstConnect: true,
    });
    opened.then(
      (nc) => (this.stopped ? void nc.close() : this.attach(nc)),
      (err: Error) => this.logger.warn(`event bus cannot connect to NATS: ${err.message}`),
    );
  }

  private attach(nc: NatsConnection): void {
    this.nc = nc;
    this.up = !nc.isClosed();
    void this.watch(nc);
    for (const channel of this.channels()) this.join(channel);
    this.attached(nc);
  }

  /** A PING to the server, sent after every subscription so far (once connected): it has them when the PONG is back. */
  protected async roundTrip(): Promise<void> {
    await (this.nc ?? (await this.connection)).flush();
  }

  protected channelOf(topic: string): string {
    return `${this.prefix}.t.${Buffer.from(topic).toString('base64url')}`;
  }

  protected join(channel: string): void {
    if (!this.nc || this.subs.has(channel)) return;
    const sub = this.nc.subscribe(channel, {
      callback: (err, msg) => err || this.receive(new TextDecoder().decode(msg.data)),
    });
    this.subs.set(channel, sub);
  }

  protected leave(channel: string): void {
    this.subs.get(channel)?.unsubscribe();
    this.subs.delete(channel);
  }

  /** Published; to confirm, a round trip to the server after it: the server has read the message once it is back. */
  protected async send(channel: string, text: string, confirm: boolean): Promise<void> {
    const nc = this.nc;
    if (!nc || !this.up || nc.isClosed()) throw new Error('the event bus is not connected to NATS');
    nc.publish(channel, new TextEncoder().encode(text));
    if (!confirm) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      const ms = this.options.flushTimeout ?? 5_000;
      timer = setTimeout(() => reject(new Error(`NATS did not acknowledge within ${ms} ms`)), ms);
    });
    await Promise.race([nc.flush(), late]).finally(() => clearTimeout(timer));
  }

  health(): TaskEventBusHealth {
    return { connected: !!this.nc && this.up && !this.nc.isClosed() };
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const sub of this.subs.values()) sub.unsubscribe();
    this.subs.clear();
    if (this.nc && !isNatsConnection(this.options.connection)) await this.nc.close().catch(() => undefined);
  }

  /**
   * Follows the connection's state for `health()` and `send`; on a reconnect (the client sent our subscriptions
   * again before saying so) the follows are told once they are in effect again.
   */
  private async watch(nc: NatsConnection): Promise<void> {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') this.up = false;
      else if (s.type === 'reconnect') {
        this.up = true;
        this.rejoined();
      }
    }
    this.up = false;
  }
}

/** A `NatsConnection` the app opened (rather than options): it has `subscribe`, `publish` and `flush`. */
export function isNatsConnection(value: unknown): value is NatsBusConnection {
  const c = value as Record<string, unknown> | null;
  return !!c && ['subscribe', 'publish', 'flush'].every((m) => typeof c[m] === 'function');
}
