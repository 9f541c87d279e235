import { McpTasksClient, type AwaitTaskOptions } from '@mcp-tasks/client';
import type { McpAuthOptions, McpTasksModuleOptions, McpUpstreamOptions, ResourceCacheHint } from '@mcp-tasks/nestjs';
import type { McpTasksConsoleOptions } from '@mcp-tasks/nestjs/console';
import { taskEventBusContract, type TaskEventBusContractOptions } from '@mcp-tasks/nestjs/testing';
import { resolveConsoleOptions } from '../../libs/mcp-tasks/src/console/console-options.js';
import { resolveOptions } from '../../libs/mcp-tasks/src/options/resolve-options.js';
import { runCli } from '../../libs/mcp-tasks-client/src/cli/cli.program.js';

/*
 * Every option that feeds a timer, with its documented bounds and a probe that runs its real validator (the one the
 * module's, the console's, the client's or the CLI's startup runs). test/duration-options.e2e-spec.ts checks that it
 * covers every option an app can pass, and drives each one. A number-valued key of the main options interfaces that
 * is not classified here does not compile.
 */

export const MAX = 2 ** 31 - 1;
export const server = { name: 's', version: '1' };

/** A duration in ms: `probe` runs the real validator and gives its error, or `undefined` when it accepts. */
export interface Duration {
  kind: 'ms';
  /** The option as the error names it. */
  named: string;
  min: number;
  max: number;
  nullable?: true;
  probe: (value: unknown) => Promise<string | undefined>;
}
/** Not a duration, but multiplies one into a timer. */
export interface Factor {
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
export type Entry = Duration | Factor | NotTimed;

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
  questionTimeout: moduleOption('questionTimeout', 1, MAX),
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

const RESOURCE_CACHE: Classified<ResourceCacheHint> = {
  ttlMs: { kind: 'not timed', why: 'a caching hint sent to clients in resources/read results; no timer of ours' },
};

/** The bus contract suite checks its wait before it registers a test: a test API that registers nothing. */
const none = (): undefined => undefined;
const noTests = { beforeAll: none, afterAll: none, beforeEach: none, it: none, describe: none } as never;
const BUS_CONTRACT: Classified<TaskEventBusContractOptions> = {
  settle: ms('settle', 1, 60_000, (v) => taskEventBusContract(async () => never(), noTests, { settle: v as number })),
};
const never = (): never => {
  throw new Error('not opened');
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
export const CLI: Record<string, Duration> = { '--wait': cliFlag('cancel', '--wait', 0, MAX) };

export const REGISTRY: Record<string, Entry> = Object.fromEntries(
  Object.entries({
    McpTasksModuleOptions: MODULE,
    McpAuthOptions: AUTH,
    McpUpstreamOptions: UPSTREAM,
    McpTasksConsoleOptions: CONSOLE,
    AwaitTaskOptions: AWAIT,
    ResourceCacheHint: RESOURCE_CACHE,
    TaskEventBusContractOptions: BUS_CONTRACT,
  }).flatMap(([type, keys]) => Object.entries(keys as Record<string, Entry>).map(([k, e]) => [`${type}.${k}`, e])),
);
