import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Redis, RedisOptions } from 'ioredis';
import { BrokerTaskEventBus } from './broker-task-event.bus.js';
import type { RedisBusClient, RedisBusConnectionOptions } from './redis-bus.client.js';
import type { TaskEventBusHealth } from './task-event-bus.interface.js';

/** The `ioredis` constructor (an optional peer, loaded by the bus factory). */
export type RedisConstructor = new (options: RedisOptions) => Redis;

export interface RedisBusOptions {
  /** A URL or options (the bus opens its connections), or the app's client (the bus subscribes on a duplicate). */
  connection: string | RedisBusConnectionOptions | RedisBusClient | Redis;
  /** Channel name prefix. Default `mcp-tasks`. */
  prefix?: string;
}

/**
 * Relays task events between instances with Redis pub/sub: a channel per followed topic (`<prefix>:t:<topic>`) and
 * one every instance hears (`<prefix>:all`). Publishes go on one connection, in order; subscriptions on another,
 * joined again whenever it is ready after a reconnect (each follow's `onActive` then comes again). A lost message
 * only delays: waiting runs re-read the store.
 */
export class RedisTaskEventBus extends BrokerTaskEventBus implements OnModuleInit, OnApplicationShutdown {
  protected readonly broadcast: string;
  private readonly prefix: string;
  private readonly pub: Redis;
  private readonly sub: Redis;
  /** Whether `pub` is the app's client (left open on shutdown). */
  private readonly borrowed: boolean;
  /** Resolves on the subscribing connection's next 'ready' (round trips wait for it). */
  private ready?: Promise<void>;

  constructor(Driver: RedisConstructor, options: RedisBusOptions) {
    super();
    this.prefix = options.prefix ?? 'mcp-tasks';
    this.broadcast = `${this.prefix}:all`;
    const given = options.connection;
    this.borrowed = isRedisClient(given);
    // Our own publisher fails at once while disconnected, rather than queueing an answer until Redis is back.
    const own: RedisOptions = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
    this.pub = isRedisClient(given)
      ? (given as Redis)
      : new Driver({ ...(typeof given === 'string' ? urlOptions(given) : (given as RedisOptions)), ...own });
    this.sub = this.pub.duplicate({ lazyConnect: true, autoResubscribe: false, enableOfflineQueue: true });
    this.sub.on('message', (_channel: string, text: string) => this.receive(text));
    // Joined again on every (re)connection (SUBSCRIBE to a channel already heard is harmless), and the follows told
    // once that is in effect: what was published while the link was down was not relayed here.
    this.sub.on('ready', () => {
      this.subscribeAll();
      this.rejoined();
    });
    for (const c of [this.pub, this.sub]) c.on('error', () => undefined);
  }

  async onModuleInit(): Promise<void> {
    if (!this.borrowed) await this.pub.connect().catch(() => this.warnDown());
    await this.sub.connect().catch(() => undefined);
  }

  protected channelOf(topic: string): string {
    return `${this.prefix}:t:${topic}`;
  }

  protected join(channel: string): void {
    if (this.sub.status === 'ready') this.sub.subscribe(channel).catch(() => undefined);
  }

  protected leave(channel: string): void {
    if (this.sub.status === 'ready') this.sub.unsubscribe(channel).catch(() => undefined);
  }

  /** A PING on the subscribing connection (commands there run in order); once it is ready, so after it joined all. */
  protected async roundTrip(): Promise<void> {
    if (this.sub.status !== 'ready')
      // One listener however many follows wait; added after the constructor's, so it runs after `subscribeAll`.
      await (this.ready ??= new Promise<void>((resolve) =>
        this.sub.once('ready', () => {
          this.ready = undefined;
          resolve();
        }),
      ));
    await this.sub.ping();
  }

  protected async send(channel: string, text: string): Promise<void> {
    if (this.pub.status !== 'ready') throw new Error('the event bus is not connected to Redis');
    await this.pub.publish(channel, text);
  }

  health(): TaskEventBusHealth {
    return { connected: this.pub.status === 'ready' && this.sub.status === 'ready' };
  }

  async onApplicationShutdown(): Promise<void> {
    this.sub.disconnect();
    if (!this.borrowed) this.pub.disconnect();
  }

  private subscribeAll(): void {
    this.sub.subscribe(...this.channels()).catch(() => undefined);
  }

  private warnDown(): void {
    this.logger.warn('event bus cannot reach Redis yet; it keeps trying');
  }
}

/** An `ioredis` client the app made (rather than options): it has `duplicate` and `publish`. */
export function isRedisClient(value: unknown): value is RedisBusClient {
  const c = value as Record<string, unknown> | null;
  return !!c && typeof c.duplicate === 'function' && typeof c.publish === 'function';
}

/** A `redis://` URL as `ioredis` options (its constructor takes a URL only as a separate argument). */
function urlOptions(url: string): RedisOptions {
  const u = new URL(url);
  const db = u.pathname.slice(1);
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}
