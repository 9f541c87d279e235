import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@mcp-tasks/client';
import { createAuthApp } from './fixtures/auth-app.js';
import { runCli } from './support/cli-process.js';
import { hs256, ISSUER, RESOURCE, SECRET } from './support/tokens.js';

/** A token that expires 2 to 3 s from now (`exp` counts whole seconds). */
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;
const shortLived = () => hs256({ sub: 'alice', scope: 'files:read', exp: inSeconds(3) });
const expired = () => hs256({ sub: 'alice', scope: 'files:read', exp: inSeconds(-60) });
/** `--token-cmd`: a fresh short-lived token per run, each run logged to `log`. */
const MINT = `${JSON.stringify(process.execPath)} test/support/mint-token.mjs`;
const mintEnv = (log: string) => ({
  MINT_SECRET: SECRET,
  MINT_CLAIMS: JSON.stringify({ sub: 'alice', scope: 'files:read', azp: 'client-1', aud: RESOURCE, iss: ISSUER }),
  MINT_TTL: '3',
  MINT_LOG: log,
});
/** The `job` tool runs this long: longer than two token lifetimes. */
const TASK_MS = '8000';

/**
 * The built CLI against an app with auth (tokens live 2-3 s, polls every second): 401/403 print the server's
 * reason and exit 77/78; `--token-cmd` / `--token-file` give a fresh token for each request, so a long task is
 * followed to its end where a fixed `--token` fails once it expires.
 */
describe('client CLI: tokens and refusals (fixture app with auth)', () => {
  let app: INestApplication;
  let url: string;
  let dir: string;
  beforeAll(async () => {
    app = await createAuthApp({ pollInterval: 1000 });
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`;
    dir = mkdtempSync(join(tmpdir(), 'cli-auth-'));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('401 and 403 print the reason and exit 77 (unauthorized) or 78 (forbidden), on both wires', async () => {
    const reader = hs256({ sub: 'alice', scope: 'files:read' });
    const [stale, none, forbidden, legacyForbidden, legacyStale, get] = await Promise.all([
      runCli(['tools', url, '--token', expired()]),
      runCli(['tools', url]),
      runCli(['call', url, 'write_file', '--token', reader]),
      runCli(['call', url, 'write_file', '--token', reader, '--legacy', 'only']),
      runCli(['call', url, 'read_file', '--token', expired(), '--legacy', 'only']),
      runCli(['get', url, 'some-task', '--token', expired()]),
    ]);
    for (const run of [stale, legacyStale, get]) {
      expect(run.code).toBe(77);
      expect(run.stderr).toMatch(/^error: unauthorized: .*expired.*\n$/);
    }
    expect(none).toMatchObject({ code: 77, stderr: 'error: unauthorized: a bearer token is required\n' });
    for (const run of [forbidden, legacyForbidden])
      expect(run).toMatchObject({
        code: 78,
        stderr: 'error: forbidden: this needs the scopes files:read files:write\n',
      });
  });

  it('call follows a long task across expiries with --token-cmd or --token-file; --token fails (77)', async () => {
    const log = join(dir, 'mint.log');
    const file = join(dir, 'token');
    writeFileSync(file, shortLived());
    // Whoever renews the file (here the test, every second) keeps it fresh.
    const renew = setInterval(() => writeFileSync(file, `${shortLived()}\n`), 1000);
    try {
      const [byCommand, byFile, fixed] = await Promise.all([
        runCli(['call', url, 'job', '--arg', `ms=${TASK_MS}`, '--token-cmd', MINT], mintEnv(log)),
        runCli(['call', url, 'job', '--arg', `ms=${TASK_MS}`, '--token-file', file]),
        // Long enough to outlast the CLI's start on a loaded machine, shorter than its task.
        runCli(['call', url, 'job', '--arg', 'ms=30000', '--token', hs256({ sub: 'alice', exp: inSeconds(7) })]),
      ]);
      for (const run of [byCommand, byFile]) {
        expect(run).toMatchObject({ code: 0, stdout: 'job done\n' });
        expect(run.stderr).toMatch(/: completed$/m);
      }
      // One run of the command per request (connect, call, each poll), not one per process.
      expect(readFileSync(log, 'utf8').trim().split('\n').length).toBeGreaterThan(4);
      expect(fixed.code).toBe(77);
      expect(fixed.stderr).toMatch(/^error: unauthorized: .*expired.*$/m);
      // It failed while following the task, which goes on: stop it.
      const [, taskId] = /^task (\S+) \(job\)$/m.exec(fixed.stderr) ?? [];
      expect(taskId).toBeDefined();
      const client = await connect(url, { tasks: true, token: shortLived });
      await client.cancelTask(taskId).finally(() => client.close());
    } finally {
      clearInterval(renew);
    }
  }, 60_000);

  it('watch follows a task across token expiries with --token-cmd (polls and the listen stream)', async () => {
    const client = await connect(url, { tasks: true, token: () => shortLived() });
    try {
      const call = await client.callTool('job', { ms: Number(TASK_MS) });
      if (call.kind !== 'task') throw new Error('expected a task');
      const watched = await runCli(['watch', url, call.task.taskId, '--token-cmd', MINT], mintEnv(join(dir, 'w.log')));
      expect(watched).toMatchObject({ code: 0, stdout: 'job done\n' });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a token command or file that gives no token: exit 1 naming the flag; both flags: exit 2', async () => {
    const [failing, silent, missing, empty, both] = await Promise.all([
      runCli(['tools', url, '--token-cmd', 'echo "no session, log in first" >&2; exit 3']),
      runCli(['tools', url, '--token-cmd', 'true']),
      runCli(['tools', url, '--token-file', join(dir, 'absent')]),
      (writeFileSync(join(dir, 'empty'), '\n'), runCli(['tools', url, '--token-file', join(dir, 'empty')])),
      runCli(['tools', url, '--token-cmd', 'true', '--token-file', join(dir, 'empty')]),
    ]);
    expect(failing).toMatchObject({
      code: 1,
      stderr: 'error: --token-cmd failed (exit 3): no session, log in first\n',
    });
    expect(silent).toMatchObject({ code: 1, stderr: 'error: --token-cmd printed no token\n' });
    expect(missing).toMatchObject({
      code: 1,
      stderr: `error: --token-file: cannot read ${join(dir, 'absent')} (ENOENT)\n`,
    });
    expect(empty).toMatchObject({ code: 1, stderr: `error: --token-file: ${join(dir, 'empty')} holds no token\n` });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--token-cmd.*cannot be used with.*--token-file/);
  });
});
