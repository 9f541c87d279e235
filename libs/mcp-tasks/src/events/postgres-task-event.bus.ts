import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { LocalTaskEventBus } from './local-task-event.bus.js';
import type { PostgresConnectionConfig } from '../store/postgres-connection.config.js';
import { ChannelListens, topicChannel } from './postgres-bus.listens.js';
import { eventOf, noticeOf, readNotice } from './postgres-bus.notice.js';
import { SeenNotices } from './postgres-bus.seen.js';
import { MAX_PAYLOAD, NOTIFY_MANY, notifyValues, sentAll, type Queued } from './postgres-bus.batch.js';
import type { TaskEvent, TaskEventBus, TaskEventBusHealth } from './task-event-bus.interface.js';
import { taskEventTopics } from './task-event.topics.js';

export interface PostgresBusOptions {
  /** Connection (a URL or pg client config, or a function giving one) for the bus's own LISTEN connection. */
  connection: string | PostgresConnectionConfig | (() => Promise<string | PostgresConnectionConfig>);
  /** NOTIFY channel. Default `mcp_tasks`. */
  channel?: string;
  /** First reconnect delay in ms, doubled per failure up to 30 s. Default 250. */
  reconnectDelay?: number;
}

/**
 * Relays task events between instances with PostgreSQL LISTEN/NOTIFY on a connection of its own,
 * reconnecting with backoff. Events reach this instance's subscribers at once; echoes of its own
 * NOTIFYs are dropped. A lost notification only delays: waiting runs re-read the store.
 * Targeted: an event goes out on a channel per topic (`taskEventTopics`), which only the instances following it
 * LISTEN on; one without topics on the base channel, which every instance LISTENs on.
 */
export class PostgresTaskEventBus implements TaskEventBus, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private readonly local = new LocalTaskEventBus();
  private readonly instance = randomUUID();
  private readonly channel: string;
  private readonly listens: ChannelListens;
  private readonly seen = new SeenNotices();
  private client?: pg.Client;
  /**
   * NOTIFYs go out on the LISTEN connection without holding up the caller: one statement at a time, carrying
   * every notice published while the one before it was out (in the order they were published); the first
   * waits for the end of this turn of the event loop, so the notices one burst of work publishes share it.
   */
  private queued: Queued[] = [];
  private sending = false;
  private seq = 0;
  private stopped = false;
  private delay: number;

  /** `driver`: the `pg` package (an optional peer, loaded by the bus factory). */
  constructor(
    private readonly driver: typeof pg,
    private readonly options: PostgresBusOptions,
  ) {
    this.channel = options.channel ?? 'mcp_tasks';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.channel))
      throw new Error(`McpTasksModule: invalid bus channel "${this.channel}"`);
    this.listens = new ChannelListens(this.channel);
    this.delay = options.reconnectDelay ?? 250;
  }

  /** Connects (or starts retrying). Connection settings that cannot even be resolved now fail startup. */
  async onModuleInit(): Promise<void> {
    await this.connect(true);
  }

  /**
   * Relays `event`. Events about tasks are sent without waiting (a lost one only delays: runs re-read the store);
   * a question's answer, which nothing else carries, resolves once its NOTIFY went out and rejects when it cannot:
   * over-size, no connection, or the NOTIFY failed.
   */
  async publish(event: TaskEvent): Promise<void> {
    await this.local.publish(event);
    const notice = noticeOf(event, this.instance, this.seq++);
    const topics = taskEventTopics(event);
    const channels = topics.length ? topics.map((t) => topicChannel(this.channel, t)) : [this.channel];
    const text = JSON.stringify(notice);
    // An over-size notice would fail the whole batch it is sent in: refuse it here (a very long resource URI).
    if (event.type === 'feature-changed' && Buffer.byteLength(text) > MAX_PAYLOAD)
      throw new Error(`it takes ${Buffer.byteLength(text)} bytes, over PostgreSQL's NOTIFY limit of 8000`);
    if (event.type !== 'question-answered') return this.enqueue({ text, channels });
    const size = Buffer.byteLength(text);
    if (size > MAX_PAYLOAD) throw new Error(`it takes ${size} bytes, over PostgreSQL's NOTIFY limit of 8000`);
    if (!this.client) throw new Error('the event bus is not connected to PostgreSQL');
    await new Promise<void>((resolve, reject) =>
      this.enqueue({ text, channels, sent: (err) => (err ? reject(err) : resolve()) }),
    );
  }

  private enqueue(item: Queued): void {
    if (!this.client) return;
    this.queued.push(item);
    this.kick();
  }

  /** Starts the sender (NOTIFYs, and LISTEN changes) at the end of this turn of the event loop, unless it runs. */
  private kick(): void {
    if (this.sending || !this.client) return;
    this.sending = true;
    setImmediate(() => void this.send());
  }

  private async send(): Promise<void> {
    let listenFailed = false;
    while (this.queued.length || (!listenFailed && this.listens.pending)) {
      const client = this.client;
      if (!client) break;
      // A failure is retried on the next change of follows, and everything on a reconnect.
      if (!listenFailed && this.listens.pending)
        listenFailed = await this.listens.sync(client).then(
          () => false,
          (err: Error) => (this.logger.warn(`event bus: LISTEN failed (${err.message}); tasks read on poll`), true),
        );
      if (!this.queued.length) continue;
      const batch = this.queued;
      this.queued = [];
      try {
        await client.query({ ...NOTIFY_MANY, values: notifyValues(batch) });
        sentAll(batch);
      } catch (err) {
        sentAll(batch, err as Error);
        const n = batch.length === 1 ? 'task event' : `${batch.length} task events`;
        this.logger.warn(
          `${n} not relayed (${(err as Error).message}); other instances will see them on their next store read`,
        );
      }
    }
    sentAll(this.queued, new Error('the event bus lost its PostgreSQL connection'));
    this.queued = [];
    this.sending = false;
  }

  /**
   * Counted: the topic's channel is LISTENed on while one follow of it lasts (see `TaskEventBus.follow`);
   * `onActive` once a LISTEN on its channel is in effect (while disconnected: once connected and LISTENing), and
   * again each time a new connection LISTENs on it after a reconnect.
   */
  follow(topic: string, onActive?: () => void): () => void {
    const end = this.listens.add(topicChannel(this.channel, topic), onActive, !!this.client);
    this.kick();
    let on = true;
    return () => {
      if (!on) return;
      on = false;
      end();
      this.kick();
    };
  }

  /** How many topics this instance follows now (for diagnostics and tests). */
  get followedTopics(): number {
    return this.listens.followed;
  }

  /** Resolves once the connection LISTENs on all that is followed (a follow takes effect a moment later): tests. */
  async listening(within = 5_000): Promise<void> {
    for (const end = Date.now() + within; this.client && this.listens.pending && Date.now() < end;) await sleep(5);
  }

  subscribe(handler: (event: TaskEvent) => void): () => void {
    return this.local.subscribe(handler);
  }

  /** How many subscriptions are live in this process (for diagnostics and tests). */
  get subscriberCount(): number {
    return this.local.subscriberCount;
  }

  /** Whether the LISTEN connection is up (for tests; the health indicator reads `health()`). */
  get connected(): boolean {
    return !!this.client;
  }

  health(): TaskEventBusHealth {
    return { connected: this.connected };
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** One attempt; a failure schedules the next (never a rejection: a reconnect must not crash the process). */
  private async connect(first = false): Promise<void> {
    let client: pg.Client;
    try {
      const given =
        typeof this.options.connection === 'function' ? await this.options.connection() : this.options.connection;
      client = new this.driver.Client(
        typeof given === 'string' ? { connectionString: given } : (given as pg.ClientConfig),
      );
    } catch (err) {
      const why = (err as Error).message;
      if (first) throw new Error(`McpTasksModule: bus { type: "postgres" }: its connection settings failed: ${why}`);
      if (this.stopped) return;
      this.logger.warn(`event bus: its connection settings failed (${why}); retrying in ${this.delay} ms`);
      this.retry();
      return;
    }
    client.on('notification', (n) => this.receive(n.payload));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await this.listens.start(client);
      this.client = client;
      this.delay = this.options.reconnectDelay ?? 250;
      // Follows that changed meanwhile.
      this.kick();
    } catch (err) {
      await client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(`event bus cannot reach PostgreSQL (${(err as Error).message}); retrying in ${this.delay} ms`);
      this.retry();
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (!this.stopped) this.retry();
  }

  private retry(): void {
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, 30_000);
    setTimeout(
      () => void this.connect().catch((err: Error) => this.logger.warn(`event bus reconnect failed: ${err.message}`)),
      wait,
    ).unref();
  }

  private receive(payload: string | undefined): void {
    const notice = readNotice(payload);
    if (!notice || notice.instance === this.instance || !this.seen.fresh(notice.instance, notice.seq)) return;
    const event = eventOf(notice);
    if (event) void this.local.publish(event);
  }
}
