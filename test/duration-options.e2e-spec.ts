import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { McpTasksModule } from '@mcp-tasks/nestjs';
import { McpTasksConsoleModule } from '@mcp-tasks/nestjs/console';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/cli-process.js';
import { CLI, REGISTRY, server, type Duration, type Factor } from './support/duration-options.registry.js';
import { optionKeys } from './support/option-keys.scan.js';

/**
 * One duration rule for every option that feeds a timer or a deadline (security issue, item 3): an integer number of
 * ms within documented bounds — at most 2^31-1 where it reaches `setTimeout`/`setInterval` (longer ones fire at once:
 * a 1 ms interval), the option named in the error. Every options type an app can pass is walked from the packages'
 * entry points: a property whose name or JSDoc marks it a duration must be in the registry
 * (support/duration-options.registry.ts), and every registered one is driven through its real validator with the
 * values that overflow Node's timers.
 */

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
