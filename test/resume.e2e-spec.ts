import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, type INestApplication, type LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTasksModule, McpTool, type McpTasksModuleOptions } from '@mcp-tasks/nestjs';
import { LoopbackGuard, McpTasksConsoleModule } from '@mcp-tasks/nestjs/console';
import { createResumableApp, sqliteDatabase, type SharedDatabase } from './fixtures/resumable-app.js';
import { FixtureToolsModule } from './fixtures/fixture-app.js';
import { seenPipeline, seenRuns, type SeenRun } from './fixtures/resumable-tools.js';
import { consoleApi } from './support/console-browser.js';
import { initialize, legacyHeaders, post, request as legacyRequest } from './support/legacy-wire.js';
import { freezable, type FreezableStore } from './support/frozen-store.js';
import { call, cancelTask, getTask, TASKS, updateTask, waitForTask } from './support/mcp-request.js';
import { until } from './support/until.js';

/** Small, so takeovers come quickly: renewals every ~330 ms, takeovers looked for every 500 ms. */
const LEASE = 1_000;
const FULL = { ...TASKS, elicitation: {} };
const RESUMED_2 = 'Resumed after its instance stopped (attempt 2 of 3)';
/** The instances' shared secret: a 2025-11-25 session opened on one is good on the others. */
const SECRET = 'resume-shared-request-state-secret';

/**
 * Instances sharing one SQLite file, each on its own connection; a frozen instance plays a stopped process (SIGSTOP)
 * in-process. The proofs with real processes (SIGKILL, SIGSTOP, PostgreSQL, deploys) are separate.
 */
describe('resumable tasks (SQLite, instances in-process)', () => {
  let db: SharedDatabase;
  const apps: INestApplication[] = [];
  const frozen: Array<FreezableStore<never>> = [];

  beforeAll(async () => {
    db = await sqliteDatabase();
  });
  afterEach(async () => {
    for (const f of frozen.splice(0)) f.thaw();
    for (const app of apps.splice(0)) await app.close();
  });
  afterAll(() => db.close());

  /** An instance on the shared database, which the test may freeze (as SIGSTOP would). */
  async function instance(options: Partial<McpTasksModuleOptions> = {}, imports: unknown[] = []) {
    const gate = freezable(await db.instance());
    frozen.push(gate as never);
    const app = await createResumableApp(
      { store: gate.store, lease: LEASE, shutdownGrace: 200, requestStateSecret: SECRET, ...options },
      false,
      imports,
    );
    apps.push(app);
    return { app, freeze: gate.freeze, thaw: gate.thaw };
  }
  const started = async (app: INestApplication, name: string, args: Record<string, unknown>) => {
    const res = await call(app, name, args, { caps: FULL });
    expect(res.body.result?.resultType).toBe('task');
    return res.body.result.taskId as string;
  };
  const runs = (id: string): SeenRun[] => seenRuns.get(id) ?? [];
  const stored = (id: string) => db.observer.get(id, Date.now());
  const atAttempt = (id: string, n: number) =>
    until(`task at attempt ${n}`, async () => ((await stored(id))?.attempt === n ? stored(id) : undefined), 15_000);
  const ended = (app: INestApplication, id: string) => waitForTask(app, id, undefined, 30_000);

  it('stalled past its lease, the task resumes elsewhere from its checkpoint; the old run is fenced', async () => {
    const a = await instance();
    const b = await instance();
    const id = await started(a.app, 'steps', { steps: 8, stepMs: 250 });
    await until('two steps checkpointed', () => runs(id)[0]?.stored.length >= 2);
    a.freeze();
    const taken = await atAttempt(id, 2);
    expect(taken).toMatchObject({ status: 'working', statusMessage: RESUMED_2 });
    expect((await getTask(b.app, id)).body.result).toMatchObject({ status: 'working', statusMessage: RESUMED_2 });
    const [first] = runs(id);
    const before = first.stored.at(-1);
    a.thaw();
    const done = await ended(b.app, id);
    expect(done).toMatchObject({
      taskId: id,
      status: 'completed',
      result: { content: [{ text: '8 steps, attempt 2' }] },
    });
    // The second attempt went on from the first's last checkpoint; the first, thawed, was refused and stopped.
    const second = runs(id)[1];
    expect(second).toMatchObject({ attempt: 2, checkpointed: { done: before } });
    expect(first).toMatchObject({ attempt: 1, aborted: 'lease-lost', refused: 'lease-lost' });
    expect(first.stored.at(-1)).toBe(before);
    expect(first.returned).toBeUndefined();
    expect(runs(id)).toHaveLength(2);
    expect(await stored(id)).toMatchObject({ attempt: 2, checkpoint: { done: 8 }, status: 'completed' });
  });

  it("a later attempt runs the tool's interceptors on a stand-in request, not its guards again", async () => {
    const a = await instance();
    await instance();
    const res = await call(a.app, 'steps', { steps: 3, stepMs: 200 }, { caps: FULL, id: 'probe-1' });
    const id = res.body.result.taskId as string;
    await until('a step checkpointed', () => runs(id)[0]?.stored.length >= 1);
    a.freeze();
    await until('attempt 2 runs', () => runs(id).length === 2, 15_000);
    const seen = seenPipeline.get('probe-1')!;
    expect(seen.guarded).toBe(1);
    expect(seen.requests[0]).toMatchObject({ attempt: 1, method: 'POST', url: '/mcp' });
    expect(seen.requests[0].headers).toMatchObject({ 'mcp-method': 'tools/call' });
    expect(seen.requests[1]).toEqual({
      attempt: 2,
      method: 'POST',
      url: '/mcp',
      headers: {},
      body: {
        jsonrpc: '2.0',
        id: 'probe-1',
        method: 'tools/call',
        params: { name: 'steps', arguments: { steps: 3, stepMs: 200 } },
      },
    });
  });

  it('on the 2025-11-25 wire the same: the session follows its task to the instance that resumed it', async () => {
    const a = await instance();
    const b = await instance();
    const urlA = new URL(`${await a.app.getUrl()}/mcp`);
    const urlB = new URL(`${await b.app.getUrl()}/mcp`);
    const { session } = await initialize(urlA, {});
    const created = await post(
      urlA,
      legacyRequest('tools/call', { name: 'steps', arguments: { steps: 4, stepMs: 250 }, task: {} }),
      legacyHeaders(session),
    );
    const id = created.body.result.task.taskId as string;
    await until('a step checkpointed', () => runs(id)[0]?.stored.length >= 1);
    a.freeze();
    await atAttempt(id, 2);
    const status = await post(urlB, legacyRequest('tasks/get', { taskId: id }), legacyHeaders(session));
    expect(status.body.result).toMatchObject({ taskId: id, status: 'working', statusMessage: RESUMED_2 });
    const result = await post(urlB, legacyRequest('tasks/result', { taskId: id }), legacyHeaders(session));
    expect(result.body.result.content[0].text).toBe('4 steps, attempt 2');
  });

  it('a task of a tool the instance taking it over does not serve ends failed, saying so', async () => {
    const a = await instance();
    // A deploy that dropped the tool: this instance serves the plain fixture tools only.
    const b = await instance({ include: [FixtureToolsModule] });
    const id = await started(a.app, 'steps', { steps: 100, stepMs: 200 });
    await until('attempt 1 runs', () => runs(id).length === 1);
    a.freeze();
    expect(await ended(b.app, id)).toMatchObject({
      status: 'failed',
      error: {
        code: -32603,
        message: 'The task was interrupted and cannot resume: the instance that took it over has no tool "steps"',
      },
    });
    expect(runs(id)).toHaveLength(1);
  });

  it('a question answered before the takeover is not asked again: the next attempt has its answer', async () => {
    const a = await instance();
    const b = await instance();
    const id = await started(a.app, 'steps', { steps: 3, stepMs: 300, ask: true });
    await waitForTask(a.app, id, (s) => s === 'input_required');
    await updateTask(a.app, id, { name: { action: 'accept', content: { name: 'Ada' } } });
    await until('a step checkpointed', () => runs(id)[0]?.stored.length >= 1);
    a.freeze();
    await atAttempt(id, 2);
    const seen = new Set<string>();
    const done = await until('completed', async () => {
      const t = (await getTask(b.app, id)).body.result;
      seen.add(t.status);
      return t.status === 'completed' ? t : undefined;
    });
    expect(done.result.content[0].text).toBe('3 steps for Ada, attempt 2');
    expect(runs(id)[1]).toMatchObject({ attempt: 2, answer: 'Ada' });
    expect(seen.has('input_required')).toBe(false);
  });

  it('a question outstanding at the takeover stays outstanding; its answer reaches the new attempt', async () => {
    const a = await instance();
    const b = await instance({}, [McpTasksConsoleModule.forRoot({ guard: LoopbackGuard })]);
    const id = await started(a.app, 'steps', { steps: 1, stepMs: 10, ask: true });
    await waitForTask(a.app, id, (s) => s === 'input_required');
    a.freeze();
    await atAttempt(id, 2);
    await until('the new attempt asks', () => runs(id).length === 2);
    const waiting = (await getTask(b.app, id)).body.result;
    expect(waiting).toMatchObject({ status: 'input_required', inputRequests: { name: expect.any(Object) } });
    // The operator console shows which attempt runs, and where.
    const detail = (await consoleApi(await b.app.getUrl(), `tasks/${id}`)).body.task;
    expect(detail).toMatchObject({ attempt: { number: 2, of: 3 }, lease: { thisInstance: true, current: true } });
    await updateTask(b.app, id, { name: { action: 'accept', content: { name: 'Bea' } } });
    expect((await ended(b.app, id)).result.content[0].text).toBe('1 steps for Bea, attempt 2');
  });

  it('an answer given while no instance runs the task is kept for the next attempt', async () => {
    const a = await instance();
    const b = await instance();
    const id = await started(a.app, 'steps', { steps: 1, stepMs: 10, ask: true });
    await waitForTask(a.app, id, (s) => s === 'input_required');
    a.freeze();
    // B serves the answer; A, which runs the task, does not hear of it (no shared bus, and its store is frozen).
    await updateTask(b.app, id, { name: { action: 'accept', content: { name: 'Cy' } } });
    expect((await ended(b.app, id)).result.content[0].text).toBe('1 steps for Cy, attempt 2');
    expect(runs(id)[1]).toMatchObject({ attempt: 2, answer: 'Cy' });
  });

  it('after maxAttempts the takeover ends the task failed, saying it gave up', async () => {
    const a = await instance();
    const b = await instance();
    const id = await started(a.app, 'twice', { steps: 100, stepMs: 200 });
    await until('attempt 1 runs', () => runs(id).length === 1);
    a.freeze();
    await atAttempt(id, 2);
    b.freeze();
    const c = await instance();
    const done = await ended(c.app, id);
    expect(done).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringMatching(/gave up after 2 attempts/) },
    });
    expect(runs(id).map((r) => r.attempt)).toEqual([1, 2]);
  });

  it('a task cancelled while no instance runs it is never resumed; the stalled run stops when it wakes', async () => {
    const a = await instance();
    const b = await instance();
    const id = await started(a.app, 'steps', { steps: 100, stepMs: 200 });
    await until('attempt 1 runs', () => runs(id).length === 1);
    a.freeze();
    await cancelTask(b.app, id);
    await sleep(3 * LEASE);
    const cancelled = await stored(id);
    expect([cancelled?.status, cancelled?.attempt ?? 1]).toEqual(['cancelled', 1]);
    expect(runs(id)).toHaveLength(1);
    a.thaw();
    await until('the stalled run stopped', () => runs(id)[0].aborted, 10_000);
    expect(runs(id)[0].aborted).toBe('cancelled');
    expect((await stored(id))?.status).toBe('cancelled');
  });

  it('a cancel during a takeover reaches the new attempt', async () => {
    const a = await instance();
    await instance();
    const id = await started(a.app, 'steps', { steps: 100, stepMs: 200 });
    await until('attempt 1 runs', () => runs(id).length === 1);
    a.freeze();
    await until('attempt 2 runs', () => runs(id).length === 2, 15_000);
    a.thaw();
    // Through A, whose bus B does not hear: B's run notices in the store.
    await cancelTask(a.app, id);
    await until('attempt 2 stopped', () => runs(id)[1].aborted, 10_000);
    expect(runs(id)[1].aborted).toBe('cancelled');
    expect(await stored(id)).toMatchObject({ status: 'cancelled', attempt: 2 });
  });

  it('shutdown hands resumable tasks over at once (no failure written) and fails the others as before', async () => {
    // A lease long enough that only the hand-over explains a takeover within it.
    const a = await instance({ lease: 10_000 });
    const b = await instance({ lease: 10_000 });
    const id = await started(a.app, 'steps', { steps: 6, stepMs: 250 });
    const plain = await started(a.app, 'wait', { ms: 60_000 });
    await until('a step checkpointed', () => runs(id)[0]?.stored.length >= 1);
    const closing = Date.now();
    await a.app.close();
    apps.splice(apps.indexOf(a.app), 1);
    const released = await stored(id);
    expect([released?.status, released?.attempt ?? 1]).toEqual(['working', 1]);
    expect(released!.leaseExpiresAt!).toBeLessThanOrEqual(Date.now());
    expect(runs(id)[0].aborted).toBe('shutdown');
    expect(await stored(plain)).toMatchObject({
      status: 'failed',
      error: { message: expect.stringMatching(/shut down/) },
    });
    await atAttempt(id, 2);
    expect(Date.now() - closing).toBeLessThan(10_000);
    const done = await ended(b.app, id);
    expect(done.result.content[0].text).toBe('6 steps, attempt 2');
    expect(runs(id)[1].checkpointed).toEqual({ done: runs(id)[0].stored.at(-1) });
  });
});

describe('ctx.checkpoint', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createResumableApp({});
  });
  afterAll(() => app.close());

  it.each([
    ['in a task', TASKS],
    ['in a request', {}],
  ])('%s: takes up to 64 KiB of JSON; beyond, rejects naming the limit', async (_mode, caps) => {
    const answer = async (bytes: number) => {
      const res = await call(app, 'big', { bytes }, { caps });
      const result = res.body.result.taskId ? (await waitForTask(app, res.body.result.taskId)).result : res.body.result;
      return result.content[0].text as string;
    };
    // The string's JSON has its two quotes.
    expect(await answer(65_534)).toBe('stored 65536 bytes at attempt 1');
    expect(await answer(65_535)).toBe(
      'refused: ctx.checkpoint takes at most 65536 bytes (64 KiB) of JSON; this value is 65537 bytes: keep the ' +
        'bulk elsewhere (a file, a table) and checkpoint where it is',
    );
  });
});

describe('resume: startup', () => {
  it('on a store that cannot resume (the memory store), one warning names the tools and the store', async () => {
    const warnings: string[] = [];
    const logger: LoggerService = {
      log: () => undefined,
      error: () => undefined,
      warn: (message: unknown) => void warnings.push(String(message)),
    };
    const app = await createResumableApp({}, logger);
    try {
      const resume = warnings.filter((w) => w.includes('resume'));
      expect(resume).toHaveLength(1);
      expect(resume[0]).toMatch(/tools steps, big, twice ask to resume .* the store MemoryTaskStore cannot resume/);
      // Such a tool still runs as a task; its task simply does not resume.
      const res = await call(app, 'steps', { steps: 1, stepMs: 1 }, { caps: TASKS });
      expect((await waitForTask(app, res.body.result.taskId)).status).toBe('completed');
    } finally {
      await app.close();
    }
  });

  it.each([
    [{ task: 'sync', resume: true }, /BadTools\.run: resume: true needs a tool that runs as a task/],
    [{ resume: true }, /BadTools\.run: resume: true needs a tool that runs as a task/],
    [{ task: 'optional', resume: true, maxAttempts: 0 }, /BadTools\.run: maxAttempts must be an integer ≥ 1 .*got 0/],
    [{ task: 'optional', resume: true, maxAttempts: 1.5 }, /BadTools\.run: maxAttempts must be an integer ≥ 1/],
    [{ task: 'optional', maxAttempts: 2 }, /BadTools\.run: maxAttempts counts the attempts .*add resume: true/],
  ])('@McpTool(%j) fails startup, naming the option', async (options, message) => {
    @Injectable()
    class BadTools {
      @McpTool({ description: 'bad', ...(options as object) })
      run(): string {
        return 'never';
      }
    }
    const ref = await Test.createTestingModule({
      imports: [McpTasksModule.forRoot({ server: { name: 'bad', version: '1' } })],
      providers: [BadTools],
    }).compile();
    const app = ref.createNestApplication({ logger: false });
    await expect(app.init()).rejects.toThrow(message);
    await app.close().catch(() => undefined);
  });
});
