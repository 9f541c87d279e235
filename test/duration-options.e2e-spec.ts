import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import {
  McpTasksModule,
  type McpAuthOptions,
  type McpTasksModuleOptions,
  type McpUpstreamOptions,
} from '@mcp-tasks/nestjs';
import { McpTasksConsoleModule, type McpTasksConsoleOptions } from '@mcp-tasks/nestjs/console';
import { connect, McpTasksClient, type AwaitTaskOptions } from '@mcp-tasks/client';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConsoleOptions } from '../libs/mcp-tasks/src/console/console-options.js';
import { resolveOptions } from '../libs/mcp-tasks/src/options/resolve-options.js';
import { runCli } from '../libs/mcp-tasks-client/src/cli/cli.program.js';
import { startScriptedUpstream } from './fixtures/scripted-upstream.js';
import { ROOT } from './support/cli-process.js';
import { optionKeys } from './support/option-keys.scan.js';

/**
 * One duration rule for every option that feeds a timer or a deadline (security issue, item 3): an integer number of
 * ms within documented bounds — at most 2^31-1 where it reaches `setTimeout`/`setInterval` (longer ones fire at once:
 * a 1 ms interval), the option named in the error. Every options type an app can pass is walked from the packages'
 * entry points: a property whose name or JSDoc marks it a duration must be in this registry, and every registered one
 * is driven through its real validator with the values that overflow Node's timers.
 */

const MAX = 2 ** 31 - 1;
const server = { name: 's', version: '1' };

/** A duration in ms: `probe` runs the real validator and gives its error, or `undefined` when it accepts. */
interface Duration {
  kind: 'ms';
  /** The option as the error names it. */
  named: string;
  min: number;
  max: number;
  nullable?: true;
  probe: (value: unknown) => Promise<string | undefined>;
}
/** Not a duration, but multiplies one into a timer. */
interface Factor {
  kind: 'factor';
  named: string;
  min: number;
  max: number;
  probe: (value: unknown) => Promise<string | undefined>;
}
/** A number that feeds no timer. */
interface NotTimed {
  kind: 'not timed';
  why: string;
}
type Entry = Duration | Factor | NotTimed;

/** The properties of `T` that take a number: each must be classified, or this file does not compile. */
type NumberKeys<T> = { [K in keyof T]-?: Exclude<T[K], undefined | null> extends number ? K : never }[keyof T];
type Classified<T> = Record<NumberKeys<T>, Entry>;

const problem = async (run: () => unknown): Promise<string | undefined> => {
  try {
    await run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};
const ms = (named: string, min: number, max: number, run: (v: unknown) => unknown, nullable?: true): Duration => ({
  kind: 'ms',
  named,
  min,
  max,
  nullable,
  probe: (v) => problem(() => run(v)),
});
const moduleOption = (key: string, min: number, max: number, nullable?: true): Duration =>
  ms(key, min, max, (v) => resolveOptions({ server, [key]: v } as never), nullable);
const auth = (v: unknown): unknown =>
  resolveOptions({
    server,
    auth: {
      resource: 'https://api.example.com/mcp',
      authorizationServers: ['https://auth.example.com'],
      issuer: 'https://auth.example.com',
      secretOrKey: 'k'.repeat(32),
      cacheTtl: v as number,
    },
  });
const upstream = (key: string, min: number): Duration =>
  ms(`upstreams[0].${key}`, min, MAX, (v) =>
    resolveOptions({ server, upstreams: [{ name: 'files', url: 'http://127.0.0.1:9/mcp', [key]: v }] }),
  );

const MODULE: Classified<McpTasksModuleOptions> = {
  lease: moduleOption('lease', 1, MAX),
  shutdownGrace: moduleOption('shutdownGrace', 0, MAX),
  ttl: moduleOption('ttl', 1, 1e15, true),
  pollInterval: moduleOption('pollInterval', 1, MAX),
  requestStateTtl: moduleOption('requestStateTtl', 1, MAX),
  maxPerPrincipal: { kind: 'not timed', why: 'a count of tasks' },
  maxTasks: { kind: 'not timed', why: 'a count of tasks' },
};
const AUTH: Classified<McpAuthOptions> = { cacheTtl: ms('auth.cacheTtl', 0, MAX, auth) };
const UPSTREAM: Classified<McpUpstreamOptions> = {
  toolsTtl: upstream('toolsTtl', 100),
  timeout: upstream('timeout', 1),
};
const CONSOLE: Classified<McpTasksConsoleOptions> = {
  pollInterval: ms('pollInterval', 100, MAX, (v) =>
    resolveConsoleOptions({ guard: { canActivate: () => true }, pollInterval: v as number }),
  ),
};
/** A legacy-state client: the options are checked before it finds it cannot follow tasks. */
const idle = new McpTasksClient({} as never, '2025-11-25', undefined, false);
const AWAIT: Classified<AwaitTaskOptions> = {
  fallbackPollFactor: {
    kind: 'factor',
    named: 'awaitTask: fallbackPollFactor',
    min: 1,
    max: 1000,
    probe: async (v) => {
      const message = await problem(() => idle.awaitTask({ taskId: 't' }, { fallbackPollFactor: v as number }));
      return message?.includes('fallbackPollFactor') ? message : undefined;
    },
  },
};

/** The CLI's `<ms>` flags, run as a command line: a refused value exits 2 (usage) with the message. */
const cliFlag = (command: string, flag: string, min: number, max: number): Duration =>
  ms(flag, min, max, async (v) => {
    const errors: string[] = [];
    const io = {
      tty: false,
      interactive: false,
      columns: 80,
      out: () => undefined,
      err: (l: string) => errors.push(l),
    };
    const code = await runCli(
      ['node', 'mcp-tasks', command, 'http://127.0.0.1:9/mcp', 't', `${flag}=${String(v)}`],
      io,
    );
    if (code === 2) throw new Error(errors.join('\n'));
  });
const CLI: Record<string, Duration> = { '--wait': cliFlag('cancel', '--wait', 0, MAX) };

const REGISTRY: Record<string, Entry> = Object.fromEntries(
  Object.entries({
    McpTasksModuleOptions: MODULE,
    McpAuthOptions: AUTH,
    McpUpstreamOptions: UPSTREAM,
    McpTasksConsoleOptions: CONSOLE,
    AwaitTaskOptions: AWAIT,
  }).flatMap(([type, keys]) => Object.entries(keys as Record<string, Entry>).map(([k, e]) => [`${type}.${k}`, e])),
);

/** How a property says it is a time: its name (`…Ttl`, `…Timeout`, `…Ms`, …), or its JSDoc speaks of ms. */
const TIMED_NAME = /(ttl|timeout|interval|delay|grace|lease|wait|duration|factor)$/i;
const TIMED_DOC = /\bms\b|millisecond/;
const timedName = (key: string): boolean => {
  const name = key.split('.').pop()!;
  return TIMED_NAME.test(name) || /[a-z]Ms$/.test(name);
};

const scanned = optionKeys(
  ROOT,
  ['libs/mcp-tasks/src', 'libs/mcp-tasks-client/src'],
  [
    'libs/mcp-tasks/src/index.ts',
    'libs/mcp-tasks/src/console/index.ts',
    'libs/mcp-tasks/src/testing/index.ts',
    'libs/mcp-tasks/src/store/typeorm/index.ts',
    'libs/mcp-tasks-client/src/index.ts',
    'libs/mcp-tasks-client/src/testing/index.ts',
  ],
  // What the library hands out (its durations come from checked options), not what an app passes in.
  ['ResolvedOptions'],
);

describe('every duration option has one bounded rule', () => {
  it('the walk reaches every options type an app passes in', () => {
    const types = new Set(scanned.map((k) => k.key.split('.')[0]));
    for (const t of ['McpTasksModuleOptions', 'McpAuthOptions', 'McpUpstreamOptions', 'PostgresBusConfig'])
      expect(types).toContain(t);
    for (const t of ['TypeOrmStoreConfig', 'McpTasksConsoleOptions', 'ConnectOptions', 'AwaitTaskOptions'])
      expect(types).toContain(t);
  });

  it('every property named or documented as a time is in the registry, and every registered one is found', () => {
    const timed = scanned.filter((k) => timedName(k.key) || TIMED_DOC.test(k.doc)).map((k) => k.key);
    expect(timed.filter((k) => !(k in REGISTRY))).toEqual([]);
    const found = new Set(scanned.map((k) => k.key));
    expect(Object.keys(REGISTRY).filter((k) => !found.has(k))).toEqual([]);
  });

  it('every registered duration says in its JSDoc that it is in ms', () => {
    const undocumented = scanned.filter((k) => REGISTRY[k.key]?.kind === 'ms' && !TIMED_DOC.test(k.doc));
    expect(undocumented.map((k) => k.key)).toEqual([]);
  });

  it('every CLI flag that takes a time takes <ms> and is in the registry', () => {
    const program = readFileSync(join(ROOT, 'libs/mcp-tasks-client/src/cli/cli.program.ts'), 'utf8');
    const flags = [...program.matchAll(/'(--[a-z-]+) <([a-z-]+)>'/g)];
    const timed = flags.filter(([, flag, arg]) => arg === 'ms' || timedName(flag)).map(([, flag]) => flag);
    expect(timed.sort()).toEqual(Object.keys(CLI).sort());
  });

  const timers = [...Object.entries(REGISTRY), ...Object.entries(CLI)].filter(
    (e): e is [string, Duration | Factor] => e[1].kind !== 'not timed',
  );

  it.each(timers)('%s: accepts its bounds, and null only where documented', async (_, entry) => {
    for (const v of [entry.min, entry.max]) expect(await entry.probe(v)).toBeUndefined();
    if (entry.kind === 'ms' && entry.nullable) expect(await entry.probe(null)).toBeUndefined();
  });

  it.each(timers)('%s: refuses what overflows a timer, fractions, negatives, NaN and Infinity', async (key, entry) => {
    const refused = [entry.max + 1, 2 ** 31, 2 ** 32, entry.min - 1, -1, NaN, Infinity, -Infinity];
    if (entry.kind === 'ms') refused.push(entry.min + 0.5, 1.5);
    else refused.push(entry.min - 0.5);
    const bounds =
      entry.kind === 'ms'
        ? `${entry.named} must be an integer number of ms from ${entry.min} to ${entry.max}`
        : `${entry.named} must be a number from ${entry.min} to ${entry.max}`;
    for (const v of refused.filter(
      (x) => !(x >= entry.min && x <= entry.max && (entry.kind !== 'ms' || x % 1 === 0)),
    )) {
      const message = await entry.probe(v);
      expect({ v, message }).toEqual({ v, message: expect.stringContaining(bounds) });
      // A command line's value is a string: shown quoted unless it is digits.
      const shown = key.startsWith('--') && !/^\d+$/.test(String(v)) ? `"${String(v)}"` : String(v);
      expect(message).toContain(`(got ${shown})`);
    }
  });

  it.each(timers.filter(([key]) => !key.startsWith('--')))('%s: refuses a number written as a string', async (_, e) => {
    expect(await e.probe(String(e.max))).toContain(`(got "${e.max}")`);
  });
});

describe('startup refuses a timer that would overflow (reproduced attacks)', () => {
  const boot = async (imports: unknown[]): Promise<void> => {
    const ref = await Test.createTestingModule({ imports: imports as never[] }).compile();
    await ref.close();
  };

  it('a gateway toolsTtl past 2^31-1 (a 1 ms tools/list interval before) fails startup, named', async () => {
    const upstreams = [{ name: 'files', url: 'http://127.0.0.1:9/mcp', toolsTtl: 2 ** 31 }];
    await expect(boot([McpTasksModule.forRoot({ server, upstreams })])).rejects.toThrow(
      'McpTasksModule: invalid options: upstreams[0].toolsTtl must be an integer number of ms from 100 to 2147483647' +
        ' (got 2147483648)',
    );
  });

  it('a gateway timeout past 2^32-1 (a RangeError on every upstream request before) fails startup, named', async () => {
    const upstreams = [{ name: 'files', url: 'http://127.0.0.1:9/mcp', timeout: 2 ** 32 }];
    await expect(boot([McpTasksModule.forRoot({ server, upstreams })])).rejects.toThrow(
      /upstreams\[0\]\.timeout must be an integer number of ms from 1 to 2147483647 \(got 4294967296\)/,
    );
  });

  it('a console pollInterval past 2^31-1 (a page polling in a tight loop before) fails startup, named', async () => {
    const page = McpTasksConsoleModule.forRoot({ guard: { canActivate: () => true }, pollInterval: 2 ** 31 });
    await expect(boot([McpTasksModule.forRoot({ server }), page])).rejects.toThrow(
      'McpTasksConsoleModule: pollInterval must be an integer number of ms from 100 to 2147483647 (got 2147483648)',
    );
  });
});

describe("the client holds a server's poll hint within a timer's range", () => {
  // A hint past 2^31-1 ms made a timer that fires at once: `awaitTask({ answer: false })` looped on tasks/get
  // (187 reads in 1.5 s). ext-tasks, which drives the answering wait, holds its own timer within range.
  it.each([2 ** 31, 2 ** 32])(
    'awaitTask (observing or answering) waits, not loops, on a hint of %d ms',
    async (hint) => {
      const upstream = await startScriptedUpstream(hint);
      const client = await connect(upstream.url, { tasks: true });
      try {
        for (const answer of [false, true]) {
          const before = upstream.requests.length;
          const wait = client.awaitTask({ taskId: 'scripted-1' }, { answer, signal: AbortSignal.timeout(1_500) });
          await expect(wait).rejects.toThrow();
          const reads = upstream.requests.slice(before).filter((r) => r.method === 'tasks/get');
          expect({ answer, reads: reads.length }).toEqual({ answer, reads: 1 });
        }
      } finally {
        await client.close();
        await upstream.close();
      }
    },
  );
});
