import { describe, expect, it } from '@jest/globals';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { legacyInputRefusal } from '../libs/mcp-tasks/src/input/input-availability.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { initialize, legacyHeaders, post, request } from './support/legacy-wire.js';
import { textOf } from './support/official-client.js';
import { until } from './support/until.js';
import { drain } from './support/v1-client.js';

const RELATED = 'io.modelcontextprotocol/related-task';
const TIMEOUT = 60_000;
const label = (what: string) => `${what}-${randomUUID().slice(0, 8)}`;

/**
 * 2025-era callers of a gateway's upstream tools (the built demo behind a gateway app): at 2025-11-25 the official
 * v1 client, at 2025-06-18 raw HTTP. Upstream tools behave as local ones do for that era.
 */
describe('gateway: 2025-era callers of upstream tools', () => {
  const suite = gatewaySuite();
  const connect = async (capabilities = {}) => {
    const c = await suite.connect({ capabilities });
    await c.client.listTools();
    return c;
  };
  /** A raw 2025-era call in a session of its own at `version`. */
  const rawCall = async (version: string, params: Record<string, unknown>, caps = {}) => {
    const { session } = await initialize(suite.g.url, caps, version);
    const headers = legacyHeaders(session, { 'mcp-protocol-version': version });
    return (await post(suite.g.url, request('tools/call', params), headers)).body;
  };

  describe('2025-11-25', () => {
    it('tools/list shows the upstream tools with execution.taskSupport as the upstream lists its policy', async () => {
      const theirs = (await suite.g.upstream.client.request('tools/list', {})).tools as Array<Record<string, any>>;
      const { tools } = await (await connect()).client.listTools();
      const policyOf = (name: string) => theirs.find((t) => t.name === name)!._meta['mcp-tasks/taskSupport'];
      const proxied = tools.filter((t) => t.name.startsWith('upstream_'));
      expect(proxied).toHaveLength(theirs.length);
      for (const tool of proxied) {
        const policy = policyOf(tool.name.slice('upstream_'.length));
        expect(tool.execution).toEqual(policy === 'forbidden' ? undefined : { taskSupport: policy });
      }
      const shown = (name: string) => proxied.find((t) => t.name === name)?.execution?.taskSupport;
      expect([shown('upstream_countdown'), shown('upstream_confirm_delete'), shown('upstream_word_count')]).toEqual([
        'optional',
        'required',
        undefined,
      ]);
    });

    it('a synchronous upstream call answers the 2025 result: content, no resultType', async () => {
      const body = await rawCall('2025-11-25', { name: 'upstream_word_count', arguments: { text: 'one two three' } });
      expect(body.result).toMatchObject({ content: [{ type: 'text', text: '3 words' }] });
      expect(body.result.resultType).toBeUndefined();
    });

    it(
      'params.task makes a mirrored task: the 2025 handle, tasks/get to completion, tasks/result',
      async () => {
        const c = await connect();
        const run = label('legacy-done');
        const created = await c.client.request(
          {
            method: 'tools/call',
            params: { name: 'upstream_countdown', arguments: { seconds: 2, label: run }, task: { ttl: 60_000 } },
          },
          CreateTaskResultSchema,
        );
        expect(created.task).toMatchObject({ status: 'working', ttl: expect.any(Number), pollInterval: 100 });
        expect(created.task.ttl).toBeLessThanOrEqual(60_000);
        // The upstream ran it as a task of its own.
        expect(await suite.g.upstreamTaskOf(run)).toEqual(expect.any(String));
        const tasks = c.client.experimental.tasks;
        await until(
          'the mirrored countdown completed',
          async () => (await tasks.getTask(created.task.taskId)).status === 'completed',
          30_000,
        );
        const result = await tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
        expect(textOf(result)).toBe('Counted down 2 s.');
        expect(result._meta).toMatchObject({ [RELATED]: { taskId: created.task.taskId } });
      },
      TIMEOUT,
    );

    it(
      'tasks/cancel cancels the mirrored task, and the upstream task: its signal fired',
      async () => {
        const c = await connect();
        const run = label('legacy-cancel');
        const { task } = await c.client.request(
          {
            method: 'tools/call',
            params: { name: 'upstream_countdown', arguments: { seconds: 120, label: run }, task: {} },
          },
          CreateTaskResultSchema,
        );
        const upstreamId = await suite.g.upstreamTaskOf(run);
        const cancelled = await c.client.experimental.tasks.cancelTask(task.taskId);
        expect(cancelled.status).toBe('cancelled');
        await until('the upstream countdown stopped by its signal', async () =>
          (await suite.g.countdownLog()).includes(`${run} (task ${upstreamId}): stopped by its signal (cancelled)`),
        );
        expect((await suite.g.upstream.client.getTask(upstreamId)).status).toBe('cancelled');
      },
      TIMEOUT,
    );

    it(
      'a question the upstream task asks reaches the client tied to the task; its answer goes upstream',
      async () => {
        const c = await connect({ elicitation: {} });
        const asked: Array<{ request: ElicitRequest; taskId?: string }> = [];
        c.client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
          asked.push({ request: req, taskId: extra.taskId });
          return { action: 'accept', content: { confirm: true } };
        });
        const messages = await drain(
          c.client.experimental.tasks.callToolStream(
            { name: 'upstream_confirm_delete', arguments: { filename: 'a.txt' } },
            CallToolResultSchema,
            { timeout: TIMEOUT },
          ),
        );
        const id = (messages[0] as { task: { taskId: string } }).task.taskId;
        expect(textOf((messages.at(-1) as { result: unknown }).result)).toBe('Deleted a.txt');
        expect(asked).toHaveLength(1);
        expect(asked[0].taskId).toBe(id);
        expect(asked[0].request.params).toMatchObject({
          message: 'Delete a.txt?',
          _meta: { [RELATED]: { taskId: id } },
        });
      },
      TIMEOUT,
    );

    it('negotiation as for local tools: -32601, a required tool without params.task, a sync one with it', async () => {
      const required = await rawCall('2025-11-25', { name: 'upstream_confirm_delete', arguments: { filename: 'x' } });
      expect(required.error).toEqual({
        code: -32601,
        message: 'Tool upstream_confirm_delete requires task augmentation (execution.taskSupport: required)',
      });
      const sync = await rawCall('2025-11-25', { name: 'upstream_word_count', arguments: { text: 'a' }, task: {} });
      expect(sync.error).toEqual({
        code: -32601,
        message: 'Tool upstream_word_count does not support task-augmented execution',
      });
    });

    it('an upstream asking in the request a client without the capability: the refusal local tools give', async () => {
      const name = 'upstream_test_input_required_result_elicitation';
      const body = await rawCall('2025-11-25', { name, arguments: {} });
      const local = legacyInputRefusal(`Tool ${name}`, 'elicitation/create', '2025-11-25');
      expect(body.error).toEqual({ code: local.code, message: local.message });
    });
  });

  describe('2025-06-18', () => {
    it('tools/list has no execution; a call answers content; params.task is ignored (run in the request)', async () => {
      const { session } = await initialize(suite.g.url, {}, '2025-06-18');
      const headers = legacyHeaders(session, { 'mcp-protocol-version': '2025-06-18' });
      const { tools } = (await post(suite.g.url, request('tools/list'), headers)).body.result;
      expect(tools.filter((t: { execution?: unknown }) => t.execution !== undefined)).toEqual([]);
      const params = { name: 'upstream_slow_compute', arguments: { seconds: 0.2, label: 'old' }, task: {} };
      const { result } = (await post(suite.g.url, request('tools/call', params), headers)).body;
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Computed old in 0.2s' }] });
      expect(result.task).toBeUndefined();
      expect(result.resultType).toBeUndefined();
    });

    it('a required upstream tool is refused as a local one is at 2025-06-18', async () => {
      const body = await rawCall('2025-06-18', { name: 'upstream_confirm_delete', arguments: { filename: 'x' } });
      expect(body.error).toEqual({
        code: -32600,
        message:
          'Tool upstream_confirm_delete runs only as a task: call it on protocol 2025-11-25 with params.task, ' +
          'or on 2026-07-28 with the Tasks extension',
      });
    });

    it('an upstream that asks in the request, of a client without the capability: the local refusal', async () => {
      const name = 'upstream_test_input_required_result_sampling';
      const body = await rawCall('2025-06-18', { name, arguments: {} }, { elicitation: {} });
      const local = legacyInputRefusal(`Tool ${name}`, 'sampling/createMessage', '2025-06-18');
      expect(body.error).toEqual({ code: local.code, message: local.message });
    });
  });
});
