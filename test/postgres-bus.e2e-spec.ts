import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { TaskEvent } from '@mcp-tasks/nestjs';
// Internal: what `bus: { type: 'postgres' }` builds (not exported on its own).
import { PostgresTaskEventBus } from '../libs/mcp-tasks/src/events/postgres-task-event.bus.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { until } from './support/until.js';

describe('PostgresTaskEventBus: reconnects never crash the process', () => {
  let db: TestPostgres;
  const buses: PostgresTaskEventBus[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  beforeAll(async () => {
    db = await startPostgres();
  }, 60_000);
  afterAll(() => db?.stop());
  beforeEach(() => {
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    for (const bus of buses.splice(0)) await bus.onApplicationShutdown();
  });

  const named = (name: string) => `${db.url}?application_name=${name}`;
  const open = async (connection: ConstructorParameters<typeof PostgresTaskEventBus>[1]['connection']) => {
    const bus = new PostgresTaskEventBus(pg, { connection, reconnectDelay: 50 });
    buses.push(bus);
    await bus.onModuleInit();
    return bus;
  };
  /** Whether an event published on `from` reaches `to` (through NOTIFY). */
  const relays = async (from: PostgresTaskEventBus, to: PostgresTaskEventBus): Promise<boolean> => {
    const taskId = `probe-${Math.random()}`;
    let heard = false;
    const off = to.subscribe((e: TaskEvent) => (heard ||= e.taskId === taskId));
    // Targeted relays: only an instance following the task hears of it.
    const unfollow = to.follow(taskId);
    await to.listening();
    try {
      await from.publish({ type: 'cancel-requested', taskId });
      await until('relayed', () => heard, 3_000).catch(() => undefined);
      return heard;
    } finally {
      off();
      unfollow();
    }
  };
  const dropConnections = async (applicationName: string) => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      return rowCount;
    } finally {
      await admin.end();
    }
  };

  it('a connection function that throws on a reconnect is retried: the bus comes back', async () => {
    let calls = 0;
    const flaky = await open(async () => {
      calls++;
      if (calls === 2 || calls === 3) throw new Error('secret store unreachable');
      return named('flaky_bus');
    });
    const other = await open(named('other_bus'));
    expect(await relays(other, flaky)).toBe(true);
    expect(await dropConnections('flaky_bus')).toBe(1);
    await until('reconnected after the failing lookups', () => calls >= 4 && flaky.connected, 15_000);
    expect(await until('relaying again', () => relays(other, flaky), 15_000)).toBe(true);
    expect(unhandled).toEqual([]);
  });

  it('a NOTIFY on its channel that is not one of ours is ignored (no crash), and relaying goes on', async () => {
    const a = await open(named('bus_a'));
    const b = await open(named('bus_b'));
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      for (const payload of ['null', '42', '"x"', '[]', '{"taskId":7}', 'not json', '{}'])
        await admin.query('SELECT pg_notify($1, $2)', ['mcp_tasks', payload]);
    } finally {
      await admin.end();
    }
    expect(await relays(a, b)).toBe(true);
    expect(unhandled).toEqual([]);
  });

  it('the events one turn publishes go out in one NOTIFY statement, and arrive in the order published', async () => {
    const statements: string[] = [];
    // The driver as the bus factory hands it over, with its clients' statements recorded.
    class Recording extends pg.Client {
      constructor(config?: string | pg.ClientConfig) {
        super(config);
        const query = this.query.bind(this) as (...args: unknown[]) => unknown;
        this.query = ((...args: unknown[]) => {
          const config = args[0] as string | { name?: string };
          statements.push(typeof config === 'string' ? config : (config.name ?? ''));
          return query(...args);
        }) as pg.Client['query'];
      }
    }
    const a = new PostgresTaskEventBus({ ...pg, Client: Recording } as typeof pg, { connection: named('bus_a') });
    buses.push(a);
    await a.onModuleInit();
    const b = await open(named('bus_b'));
    const heard: string[] = [];
    b.subscribe((e: TaskEvent) => heard.push(e.taskId));
    const ids = Array.from({ length: 40 }, (_, i) => `burst-${i}`);
    for (const id of [...ids, 'later']) b.follow(id);
    await b.listening();
    await Promise.all(ids.map((taskId) => a.publish({ type: 'cancel-requested', taskId })));
    await until('all relayed', () => heard.length === ids.length, 5_000);
    expect(heard).toEqual(ids);
    expect(statements.filter((s) => s === 'mcp_tasks_notify_on')).toHaveLength(1);
    // A later turn's event goes in a statement of its own.
    await a.publish({ type: 'cancel-requested', taskId: 'later' });
    await until('the later one relayed', () => heard.includes('later'), 5_000);
    expect(statements.filter((s) => s === 'mcp_tasks_notify_on')).toHaveLength(2);
  });

  it('targeted: an event reaches the instances following one of its topics, once; follows are counted', async () => {
    // The longest channel PostgreSQL takes: a topic's channel derived from it is an identifier too.
    const channel = 'c'.repeat(63);
    const bus = async (name: string) => {
      const made = new PostgresTaskEventBus(pg, { connection: named(name), channel, reconnectDelay: 50 });
      buses.push(made);
      await made.onModuleInit();
      return made;
    };
    const [a, b, c] = [await bus('bus_a'), await bus('bus_b'), await bus('bus_c')];
    const heard = { b: [] as TaskEvent[], c: [] as TaskEvent[] };
    b.subscribe((e: TaskEvent) => heard.b.push(e));
    c.subscribe((e: TaskEvent) => heard.c.push(e));
    const first = b.follow('t1');
    const second = b.follow('t1');
    const session = b.follow('session:s1');
    await b.listening();
    const changed = { type: 'status-changed', taskId: 't1', status: 'working', session: 's1' } as const;
    await a.publish(changed);
    await a.publish({ type: 'feature-changed', taskId: '', change: 'prompts' });
    await until('B heard both', () => heard.b.length === 2, 5_000);
    await until('C heard the feature change', () => heard.c.length === 1, 5_000);
    // Under two topics B follows, the status change came once; C, following neither, heard only the broadcast.
    expect(heard.b).toEqual([changed, { type: 'feature-changed', taskId: '', change: 'prompts' }]);
    expect(heard.c).toEqual([{ type: 'feature-changed', taskId: '', change: 'prompts' }]);
    session();
    first();
    first();
    expect(b.followedTopics).toBe(1);
    await b.listening();
    await a.publish({ type: 'cancel-requested', taskId: 't1' });
    await until('B heard the cancel (one follow of t1 left)', () => heard.b.length === 3, 5_000);
    second();
    expect(b.followedTopics).toBe(0);
    await b.listening();
    await a.publish({ type: 'input-answered', taskId: 't1' });
    await a.publish({ type: 'feature-changed', taskId: '', change: 'resources' });
    // The broadcast after it arrives: had the unfollowed task's event been relayed, it would have come first.
    await until('B heard the broadcast', () => heard.b.length === 4, 5_000);
    expect(heard.b.at(-1)).toEqual({ type: 'feature-changed', taskId: '', change: 'resources' });
    expect(unhandled).toEqual([]);
  });

  it('connection settings that fail at startup fail startup, naming the bus', async () => {
    const bus = new PostgresTaskEventBus(pg, {
      connection: async () => {
        throw new Error('no such DataSource');
      },
    });
    await expect(bus.onModuleInit()).rejects.toThrow(
      'McpTasksModule: bus { type: "postgres" }: its connection settings failed: no such DataSource',
    );
  });

  it('a database that goes away and comes back: the bus reconnects and relays again', async () => {
    const a = await open(named('bus_a'));
    const b = await open(named('bus_b'));
    expect(await relays(a, b)).toBe(true);
    // Followed before the restart: LISTENed on again on the new connection.
    b.follow('kept');
    await b.listening();
    const kept: TaskEvent[] = [];
    b.subscribe((e: TaskEvent) => void (e.taskId === 'kept' && kept.push(e)));
    await db.restart({ downMs: 1_500 });
    await until('both reconnected', () => a.connected && b.connected, 30_000);
    expect(await until('relaying again', () => relays(a, b), 30_000)).toBe(true);
    await a.publish({ type: 'cancel-requested', taskId: 'kept' });
    expect(await until('the kept follow relayed', () => kept.length === 1 && kept, 5_000)).toEqual([
      { type: 'cancel-requested', taskId: 'kept' },
    ]);
    expect(unhandled).toEqual([]);
  }, 60_000);
});
