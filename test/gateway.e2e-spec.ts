import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { EventEmitter2, EventEmitterModule } from '@nestjs/event-emitter';
import { McpTaskEvents } from '@mcp-tasks/nestjs';
import { randomUUID } from 'node:crypto';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { startDemoProcess, textOf, type DemoProcess } from './support/demo-process.js';
import { listen } from './support/listen.js';
import { call, cancelTask, getTask, rpc, TASKS, updateTask, waitForTask } from './support/mcp-request.js';
import { until } from './support/until.js';

const ASKS = { ...TASKS, elicitation: {} };
const label = (what: string) => `${what}-${randomUUID().slice(0, 8)}`;

/**
 * Two processes: the built demo as the upstream, and a gateway app in front of it (`upstreams: [{ name: 'upstream',
 * url }]`), driven over HTTP as a client would.
 */
describe('gateway: the demo proxied as upstream_*', () => {
  let upstream: DemoProcess;
  let gateway: INestApplication;
  /** The upstream's own log of how its countdown runs ended (a run cancelled shows its signal fired). */
  const countdownLog = () => textOf(upstream.client, 'countdown_log');
  /** The `mcp.task.*` events the gateway emitted. */
  const events: [string, Record<string, any>][] = [];
  const eventsOf = (taskId: string) => events.filter(([, p]) => p.taskId === taskId);
  /** The upstream task behind a countdown run, found by its label in that log. */
  const upstreamTaskOf = async (run: string) => {
    const line = await until(`countdown ${run} in the upstream's log`, async () =>
      (await countdownLog()).split('\n').find((l) => l.startsWith(`${run} `)),
    );
    return /\(task ([\w-]+)\)/.exec(line)![1];
  };

  beforeAll(async () => {
    upstream = await startDemoProcess({ MCP_POLL_INTERVAL: '200' });
    gateway = await createGatewayApp([{ name: 'upstream', url: upstream.url }], {}, [
      EventEmitterModule.forRoot({ wildcard: true }),
    ]);
    gateway.get(EventEmitter2).onAny((name: string | string[], payload: Record<string, any>) => {
      events.push([String(name), payload]);
    });
    await until('the upstream tools listed', async () => {
      const { body } = await rpc(gateway, 'tools/list');
      return body.result?.tools?.some((t: { name: string }) => t.name === 'upstream_countdown');
    });
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.stop();
  });

  it('tools/list shows the upstream tools prefixed, with schemas, titles, annotations, after its own', async () => {
    const theirs = (await upstream.client.request('tools/list', {})).tools as Array<Record<string, unknown>>;
    const ours = (await rpc(gateway, 'tools/list')).body.result.tools as Array<Record<string, unknown>>;
    const proxied = ours.filter((t) => String(t.name).startsWith('upstream_'));
    expect(proxied.map((t) => t.name)).toEqual(theirs.map((t) => `upstream_${String(t.name)}`));
    // Not the upstream's `_meta` (its task policy, under the library's key): the gateway's listing is its own.
    for (const [i, { _meta: _, ...tool }] of theirs.entries())
      expect(proxied[i]).toEqual({ ...tool, name: `upstream_${String(tool.name)}` });
    // Its own tools first, unprefixed.
    expect(ours[0].name).not.toMatch(/^upstream_/);
    expect(ours.indexOf(proxied[0])).toBe(ours.length - proxied.length);
    expect(proxied.find((t) => t.name === 'upstream_export_project')).toMatchObject({
      inputSchema: { type: 'object', properties: { project: expect.any(Object) } },
    });
  });

  it('a synchronous tool answers through the gateway as the upstream answers it', async () => {
    const res = await call(gateway, 'upstream_word_count', { text: 'one two three' });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: '3 words' }],
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'gateway', version: '1.0.0' } },
    });
  });

  it('without the Tasks extension an optional tool runs synchronously upstream; a required one is -32021', async () => {
    const sync = await call(gateway, 'upstream_slow_compute', { seconds: 0.2, label: 'now' });
    expect(sync.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Computed now in 0.2s' }] });
    const refused = await call(gateway, 'upstream_failing_job', {});
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: -32021,
      message: 'Tool failing_job runs only as a task: declare the io.modelcontextprotocol/tasks extension',
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
  });

  it("arguments the upstream's DTO refuses: its tool error result passes through as it gave it", async () => {
    const direct = await upstream.client.request(
      'tools/call',
      { name: 'greet', arguments: { name: 42 } },
      { capabilities: {} },
    );
    const res = await call(gateway, 'upstream_greet', { name: 42 });
    // The same result but for its _meta, which names the server that answered.
    const { _meta: _theirs, ...upstreamResult } = direct;
    const { _meta: _ours, ...gatewayResult } = res.body.result;
    expect(gatewayResult).toEqual(upstreamResult);
    expect(gatewayResult).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Invalid arguments for tool greet:\nname: must be a string' }],
    });
  });

  it('a task upstream is mirrored by a local task: progress, then the result; its ttl is no longer', async () => {
    const res = await call(gateway, 'upstream_countdown', { seconds: 4, label: label('done') }, { caps: TASKS });
    const created = res.body.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 100 });
    expect(created.ttlMs).toBeLessThanOrEqual(3_600_000);
    const seen = new Set<string>();
    const done = await until(
      'the mirrored countdown completed',
      async () => {
        const task = (await getTask(gateway, created.taskId)).body.result;
        if (task.statusMessage && task.status === 'working') seen.add(task.statusMessage);
        return task.status === 'completed' && task;
      },
      30_000,
    );
    expect(done.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'Counted down 4 s.' }] });
    // Progress mirrored while it ran (the upstream polled at 5 × its 200 ms while a listen stream covers the task).
    expect([...seen].some((m) => /^\d s left \([0-3]\/4\)$/.test(m))).toBe(true);
    // Telemetry as for a local task run: start, then stop with the status the store holds.
    await until('the stop event', async () => eventsOf(created.taskId).length === 2);
    expect(eventsOf(created.taskId)).toEqual([
      [
        McpTaskEvents.start,
        expect.objectContaining({ tool: 'upstream_countdown', server: 'gateway', requestId: res.body.id }),
      ],
      [
        McpTaskEvents.stop,
        expect.objectContaining({ tool: 'upstream_countdown', status: 'completed', isError: false }),
      ],
    ]);
  });

  it('a question asked upstream is asked with the same key, and answered through the gateway', async () => {
    const created = (await call(gateway, 'upstream_confirm_delete', { filename: 'notes.txt' }, { caps: ASKS })).body
      .result;
    const asking = await waitForTask(gateway, created.taskId, (s) => s === 'input_required', 30_000);
    expect(asking.inputRequests).toEqual({
      confirm: expect.objectContaining({
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Delete notes.txt?' }),
      }),
    });
    // A key nobody asked is ignored (not passed on); the outstanding one reaches the upstream.
    const ack = await updateTask(gateway, created.taskId, {
      confirm: { action: 'accept', content: { confirm: true } },
      unasked: { action: 'accept' },
    });
    expect(ack.body.result).toEqual({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'gateway', version: '1.0.0' } },
    });
    const done = await waitForTask(gateway, created.taskId, undefined, 30_000);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'Deleted notes.txt' }] } });
  });

  it('subscriptions/listen on the local task follows the mirror', async () => {
    const created = (await call(gateway, 'upstream_confirm_delete', { filename: 'x.txt' }, { caps: ASKS })).body.result;
    await waitForTask(gateway, created.taskId, (s) => s === 'input_required', 30_000);
    const stream = await listen(gateway, { taskIds: [created.taskId] }, { caps: TASKS, id: 'gw' });
    try {
      const ack = await stream.next((f) => f.method === 'notifications/subscriptions/acknowledged');
      expect(ack.params.notifications.taskIds).toEqual([created.taskId]);
      await updateTask(gateway, created.taskId, { confirm: { action: 'decline' } });
      // The answer moves it to working here; the upstream's end reaches the mirror, and the stream.
      const done = await stream.next((f) => f.params?.status === 'completed', 30_000);
      expect(done.params.result.content[0].text).toBe('Kept x.txt');
      expect(done.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('gw');
    } finally {
      stream.close();
    }
  }, 60_000);

  it("an MRTR round passes through: same keys, the upstream's requestState sealed inside ours", async () => {
    const first = await call(gateway, 'upstream_test_input_required_result_elicitation', {}, { caps: ASKS });
    const round = first.body.result;
    const direct = await upstream.client.request(
      'tools/call',
      { name: 'test_input_required_result_elicitation', arguments: {} },
      { capabilities: { elicitation: {} } },
    );
    expect(round.resultType).toBe('input_required');
    expect(Object.keys(round.inputRequests)).toEqual(Object.keys(direct.inputRequests as object));
    expect(round.inputRequests).toEqual(direct.inputRequests);
    const [key] = Object.keys(round.inputRequests);
    // Ours, not the upstream's: nothing of it can be read.
    expect(round.requestState).not.toBe(direct.requestState);
    expect(Buffer.from(round.requestState, 'base64url').toString('latin1')).not.toContain(key);
    const answers = { [key]: { action: 'accept', content: { name: 'Ada' } } };
    const tampered = await rpc(
      gateway,
      'tools/call',
      {
        name: 'upstream_test_input_required_result_elicitation',
        arguments: {},
        inputResponses: answers,
        requestState: `${round.requestState.slice(0, -2)}AA`,
      },
      { caps: ASKS },
    );
    expect(tampered.body.error).toEqual({ code: -32602, message: 'Invalid requestState' });
    const second = await rpc(
      gateway,
      'tools/call',
      {
        name: 'upstream_test_input_required_result_elicitation',
        arguments: {},
        inputResponses: answers,
        requestState: round.requestState,
      },
      { caps: ASKS },
    );
    expect(second.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, Ada!' }] });
  });

  it("tasks/cancel ends the local task at once, and the upstream task cancelled: the tool's signal fired", async () => {
    const run = label('cancel');
    const created = (await call(gateway, 'upstream_countdown', { seconds: 120, label: run }, { caps: TASKS })).body
      .result;
    const upstreamId = await upstreamTaskOf(run);
    expect(await countdownLog()).toContain(`${run} (task ${upstreamId}): running`);
    await cancelTask(gateway, created.taskId);
    expect((await getTask(gateway, created.taskId)).body.result.status).toBe('cancelled');
    expect((await upstream.client.getTask(upstreamId)).status).toBe('cancelled');
    await until('the upstream countdown stopped by its signal', async () =>
      (await countdownLog()).includes(`${run} (task ${upstreamId}): stopped by its signal (cancelled)`),
    );
    await until('the stop event', async () => eventsOf(created.taskId).some(([n]) => n === McpTaskEvents.stop));
    expect(eventsOf(created.taskId).map(([n, p]) => [n, p.status])).toEqual([
      [McpTaskEvents.start, undefined],
      [McpTaskEvents.stop, 'cancelled'],
    ]);
  });

  it.each([
    ['owner', { maxPerPrincipal: 1 }, 'you have'],
    ['server', { maxTasks: 1 }, 'the server has'],
  ])(
    'at the %s cap, the task the upstream just created is cancelled there and the caller gets -32600',
    async (_cap, limits, whose) => {
      // A gateway of its own: one live task (per owner, or in all).
      const capped = await createGatewayApp([{ name: 'upstream', url: upstream.url }], limits);
      try {
        await until('listed', async () => (await call(capped, 'upstream_word_count', {})).body.result);
        const held = await call(capped, 'upstream_countdown', { seconds: 120, label: label('cap') }, { caps: TASKS });
        expect(held.body.result.resultType).toBe('task');
        const over = label('cap-over');
        const refused = await call(capped, 'upstream_countdown', { seconds: 120, label: over }, { caps: TASKS });
        expect(refused.body.error).toEqual({
          code: -32600,
          message: `Too many live tasks: ${whose} reached the limit; wait for one to end`,
        });
        const upstreamId = await upstreamTaskOf(over);
        expect((await upstream.client.getTask(upstreamId)).status).toBe('cancelled');
        await until('the refused run stopped by its signal upstream', async () =>
          (await countdownLog()).includes(`${over} (task ${upstreamId}): stopped by its signal (cancelled)`),
        );
        await cancelTask(capped, held.body.result.taskId);
      } finally {
        await capped.close();
      }
    },
    60_000,
  );

  it('a served name that is not upstream (or filtered out) is an unknown tool', async () => {
    const res = await call(gateway, 'upstream_no_such_tool', {});
    expect(res.body.error).toEqual({ code: -32602, message: 'Unknown tool: upstream_no_such_tool' });
  });
});
