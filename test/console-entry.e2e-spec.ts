import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const APP = join(import.meta.dirname, 'fixtures/entry/entry-app.mjs');

/** Runs the fixture on the built package; returns what it printed and every module URL it loaded. */
async function loads(withConsole: boolean): Promise<{ out: string; urls: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'entry-'));
  try {
    const log = join(dir, 'loads.log');
    const env = { ...process.env, LOADS_LOG: log, ENTRY_CONSOLE: withConsole ? '1' : '0' };
    const { stdout } = await run(process.execPath, [APP], { env, timeout: 60_000 });
    return { out: stdout, urls: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the console is a separate entry point', () => {
  it('an app on @mcp-tasks/nestjs loads none of the console; @mcp-tasks/nestjs/console loads it', async () => {
    const plain = await loads(false);
    expect(plain.out).toBe('main ready\n');
    expect(plain.urls.some((u) => u.includes('/libs/mcp-tasks/dist/index.js'))).toBe(true);
    expect(plain.urls.filter((u) => u.includes('/libs/mcp-tasks/dist/console/'))).toEqual([]);
    const both = await loads(true);
    expect(both.out).toBe('main ready\nconsole ready\n');
    expect(both.urls).toContainEqual(expect.stringMatching(/\/libs\/mcp-tasks\/dist\/console\/index\.js$/));
  }, 90_000);
});
