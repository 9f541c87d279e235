import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { startDemoProcess, type DemoProcess } from './support/demo-process.js';
import { call, getTask, TASKS, updateTask } from './support/mcp-request.js';
import { hs256, ISSUER, RESOURCE, SECRET } from './support/tokens.js';
import { until } from './support/until.js';

const ASKS = { ...TASKS, elicitation: {} };
const read = async (app: INestApplication, id: string, token?: string) =>
  (await getTask(app, id, token ? { headers: { authorization: `Bearer ${token}` } } : {})).body;

/** Start a countdown through the gateway and wait until its mirror shows upstream progress. */
async function mirroredCountdown(gateway: INestApplication, seconds: number): Promise<string> {
  const id = (await call(gateway, 'upstream_countdown', { seconds }, { caps: TASKS })).body.result.taskId as string;
  await until('progress mirrored', async () => (await read(gateway, id)).result?.statusMessage);
  return id;
}

describe('gateway: when the upstream fails under a mirrored task', () => {
  let upstream: DemoProcess;
  let port: number;
  let patient: INestApplication;
  let brief: INestApplication;
  let lost: string;
  let timedOut: string;
  beforeAll(async () => {
    upstream = await startDemoProcess({ MCP_POLL_INTERVAL: '200' });
    port = upstream.process.port;
    const upstreams = [{ name: 'upstream', url: upstream.url }];
    patient = await createGatewayApp(upstreams);
    // Its tasks live 10 s: a mirror gives up on an unreachable upstream once a tenth of that is left.
    brief = await createGatewayApp(upstreams, { ttl: 10_000 });
    for (const app of [patient, brief])
      await until('upstream tools listed', async () => (await call(app, 'upstream_word_count', {})).body.result);
    lost = await mirroredCountdown(patient, 600);
    timedOut = await mirroredCountdown(brief, 600);
  }, 120_000);
  afterAll(async () => {
    await patient?.close();
    await brief?.close();
    await upstream?.stop();
  });

  it('upstream killed: a call gets -32603 to retry; the mirrored tasks keep working meanwhile', async () => {
    upstream.process.kill('SIGKILL');
    await until('the upstream gone', async () => (await call(patient, 'upstream_word_count', {})).body.error);
    expect((await call(patient, 'upstream_word_count', {})).body.error).toEqual({
      code: -32603,
      message: 'Upstream "upstream" is unreachable; try again later',
    });
    expect((await read(patient, lost)).result.status).toBe('working');
    expect((await read(brief, timedOut)).result.status).toBe('working');
  });

  it('still unreachable when little of its ttl is left: the mirrored task ends failed, still readable', async () => {
    const failed = await until('the brief task failed', async () => {
      const task = (await read(brief, timedOut)).result;
      return task?.status === 'failed' && task;
    });
    expect(failed.error).toEqual({
      code: -32603,
      message: 'Upstream "upstream" stayed unreachable until the task\'s time ran out',
    });
    const age = Date.parse(failed.lastUpdatedAt) - Date.parse(failed.createdAt);
    expect(age).toBeGreaterThanOrEqual(9_000);
    expect(age).toBeLessThan(10_000);
    // The long-lived one keeps trying.
    expect((await read(patient, lost)).result.status).toBe('working');
  }, 30_000);

  it('back without the task (a restart lost it): the mirrored task ends failed as lost', async () => {
    await upstream.client.close().catch(() => undefined);
    upstream = await startDemoProcess({ MCP_POLL_INTERVAL: '200' }, port);
    const failed = await until(
      'the lost task failed',
      async () => {
        const task = (await read(patient, lost)).result;
        return task?.status === 'failed' && task;
      },
      60_000,
    );
    expect(failed.error).toEqual({
      code: -32603,
      message: 'The upstream task was lost: "upstream" no longer has it',
    });
    // And calls go through again.
    expect((await call(patient, 'upstream_word_count', { text: 'a b' })).body.result.content[0].text).toBe('2 words');
  }, 90_000);
});

describe('gateway: following the upstream by listening', () => {
  let upstream: DemoProcess;
  let gateway: INestApplication;
  const auth = { resource: RESOURCE, authorizationServers: [ISSUER], issuer: ISSUER, secretOrKey: SECRET };
  const token = hs256({ scope: 'up:use' });
  const headers = { authorization: `Bearer ${token}` };
  beforeAll(async () => {
    // Polls of the upstream every 10 s (50 s while listening): anything sooner came from a notification.
    upstream = await startDemoProcess({ MCP_POLL_INTERVAL: '10000' });
    gateway = await createGatewayApp([{ name: 'upstream', url: upstream.url, scopes: ['up:use'] }], { auth });
    await until('listed', async () => (await call(gateway, 'upstream_word_count', {}, { headers })).body.result);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.stop();
  });

  it('an answer given through the gateway, and the upstream task ending, reach the mirror at once', async () => {
    const created = (await call(gateway, 'upstream_confirm_delete', { filename: 'f' }, { caps: ASKS, headers })).body
      .result;
    await until(
      'the question mirrored',
      async () => (await read(gateway, created.taskId, token)).result?.inputRequests,
    );
    const answered = Date.now();
    await updateTask(
      gateway,
      created.taskId,
      { confirm: { action: 'accept', content: { confirm: true } } },
      { headers },
    );
    const done = await until('completed', async () => {
      const task = (await read(gateway, created.taskId, token)).result;
      return task.status === 'completed' && task;
    });
    expect(Date.now() - answered).toBeLessThan(8_000);
    expect(done.result.content).toEqual([{ type: 'text', text: 'Deleted f' }]);
  });

  it('the upstream scopes are recorded on the mirrored task: reading it needs them too', async () => {
    const created = (await call(gateway, 'upstream_countdown', { seconds: 1 }, { caps: TASKS, headers })).body.result;
    const without = await getTask(gateway, created.taskId, { headers: { authorization: `Bearer ${hs256({})}` } });
    expect(without.status).toBe(403);
    expect(without.headers['www-authenticate']).toContain('scope="up:use"');
    expect((await read(gateway, created.taskId, token)).result.taskId).toBe(created.taskId);
  });
});
