import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { LocalTaskEventBus } from './local-task-event.bus.js';
import type { PostgresConnectionConfig } from '../store/postgres-connection.config.js';
import type {
  FeatureChange,
  QuestionAnswer,
  TaskEvent,
  TaskEventBus,
  TaskEventBusHealth,
} from './task-event-bus.interface.js';

export interface PostgresBusOptions {
  /** Connection (a URL or pg client config, or a function giving one) for the bus's own LISTEN connection. */
  connection: string | PostgresConnectionConfig | (() => Promise<string | PostgresConnectionConfig>);
  /** NOTIFY channel. Default `mcp_tasks`. */
  channel?: string;
  /** First reconnect delay in ms, doubled per failure up to 30 s. Default 250. */
  reconnectDelay?: number;
}

/** An event as NOTIFY carries it: ids and a status, or a client's answer to a question (at most 8000 bytes). */
interface Notice {
  /** The instance that sent it: an instance drops its own echoes. */
  instance: string;
  type: TaskEvent['type'];
  taskId: string;
  status?: string;
  session?: string;
  /** This instance's count of its notices: PostgreSQL folds equal payloads sent in one transaction into one. */
  seq?: number;
  question?: string;
  answer?: QuestionAnswer;
  change?: FeatureChange;
  uri?: string;
}

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD = 7_999;

/** A notice waiting for its NOTIFY; `sent` (question answers only) hears how that went. */
interface Queued {
  text: string;
  sent?: (err?: Error) => void;
}

/**
 * Every notice of a batch in one statement (one transaction), delivered in array order. Named: PostgreSQL parses
 * and plans it once per connection, not once per batch.
 */
const NOTIFY_MANY = { name: 'mcp_tasks_notify', text: 'SELECT pg_notify($1, n) FROM unnest($2::text[]) AS n' };

/**
 * Relays task events between instances with PostgreSQL LISTEN/NOTIFY on a connection of its own,
 * reconnecting with backoff. Events reach this instance's subscribers at once; echoes of its own
 * NOTIFYs are dropped. A lost notification only delays: waiting runs re-read the store.
 */
export class PostgresTaskEventBus implements TaskEventBus, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpTasks');
  private readonly local = new LocalTaskEventBus();
  private readonly instance = randomUUID();
  private readonly channel: string;
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
    const notice: Notice = {
      instance: this.instance,
      type: event.type,
      taskId: event.taskId,
      ...(event.type === 'status-changed' ? { status: event.status } : {}),
      ...(event.type === 'status-changed' && event.session !== undefined ? { session: event.session } : {}),
      ...(event.type === 'question-answered' ? { question: event.question, answer: event.answer } : {}),
      ...(event.type === 'feature-changed' ? { change: event.change, uri: event.uri } : {}),
      seq: this.seq++,
    };
    const text = JSON.stringify(notice);
    // An over-size notice would fail the whole batch it is sent in: refuse it here (a very long resource URI).
    if (event.type === 'feature-changed' && Buffer.byteLength(text) > MAX_PAYLOAD)
      throw new Error(`it takes ${Buffer.byteLength(text)} bytes, over PostgreSQL's NOTIFY limit of 8000`);
    if (event.type !== 'question-answered') return this.enqueue({ text });
    const size = Buffer.byteLength(text);
    if (size > MAX_PAYLOAD) throw new Error(`it takes ${size} bytes, over PostgreSQL's NOTIFY limit of 8000`);
    if (!this.client) throw new Error('the event bus is not connected to PostgreSQL');
    await new Promise<void>((resolve, reject) =>
      this.enqueue({ text, sent: (err) => (err ? reject(err) : resolve()) }),
    );
  }

  private enqueue(item: Queued): void {
    if (!this.client) return;
    this.queued.push(item);
    if (this.sending) return;
    this.sending = true;
    setImmediate(() => void this.send());
  }

  private async send(): Promise<void> {
    while (this.queued.length) {
      const batch = this.queued;
      this.queued = [];
      const client = this.client;
      if (!client) {
        sentAll(batch, new Error('the event bus lost its PostgreSQL connection'));
        break;
      }
      try {
        await client.query({ ...NOTIFY_MANY, values: [this.channel, batch.map((q) => q.text)] });
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
      await client.query(`LISTEN ${this.channel}`);
      this.client = client;
      this.delay = this.options.reconnectDelay ?? 250;
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
    let notice: Notice | null;
    try {
      notice = JSON.parse(payload ?? '') as Notice | null;
    } catch {
      return;
    }
    // Anyone who can reach the database may NOTIFY on the channel: take only what has our shape.
    if (!notice || typeof notice !== 'object' || typeof notice.taskId !== 'string') return;
    if (notice.instance === this.instance) return;
    const { type, taskId, status, session } = notice;
    if (type === 'question-answered') {
      const { question, answer } = notice;
      if (typeof question === 'string' && answer && typeof answer === 'object')
        void this.local.publish({ type, taskId, question, answer });
      return;
    }
    if (type === 'feature-changed') {
      const { change, uri } = notice;
      if (change === 'resources' || change === 'prompts' || (change === 'resource' && typeof uri === 'string'))
        void this.local.publish({ type, taskId: '', change, ...(change === 'resource' ? { uri } : {}) });
      return;
    }
    const event = (
      type === 'status-changed'
        ? { type, taskId, status, ...(typeof session === 'string' ? { session } : {}) }
        : { type, taskId }
    ) as TaskEvent;
    void this.local.publish(event);
  }
}

/** Tells each waiting publisher of `batch` how its NOTIFY went. */
function sentAll(batch: Queued[], err?: Error): void {
  for (const q of batch) q.sent?.(err);
}
