import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClusterApp } from './fixtures/cluster-app.js';
import { call, getTask, rpc, TASKS, waitForTask } from './support/mcp-request.js';

// The checks every shared store × bus pair must pass (relay, racing creates, listen, SIGKILL) are in test/cluster/,
// one spec per pair. Here: what does not depend on the pair.

describe('two instances sharing only the requestState secret', () => {
  it('MRTR requestState issued by A is honoured by B', async () => {
    // Memory stores: nothing is shared but the secret, so the state alone carries the first round to B.
    const a = await createClusterApp({ type: 'memory' });
    const b = await createClusterApp({ type: 'memory' });
    try {
      const r1 = await call(a, 'pair', {}, { caps: { elicitation: {} } });
      const yes = { action: 'accept', content: { ok: true } };
      const r2 = await rpc(
        b,
        'tools/call',
        { name: 'pair', arguments: {}, inputResponses: { x: yes, y: yes }, requestState: r1.body.result.requestState },
        { caps: { elicitation: {} } },
      );
      expect(r2.body.result.content[0].text).toBe('x=true y=true');
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('SQLite on a file', () => {
  it('completed results survive a restart until their TTL', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcp-sqlite-')), 'tasks.sqlite');
    const first = await createClusterApp({ type: 'better-sqlite3', database: file }, { ttl: 2000 });
    const id = (await call(first, 'wait', { ms: 10 }, { caps: TASKS })).body.result.taskId;
    const done = await waitForTask(first, id);
    await first.close();
    const second = await createClusterApp({ type: 'better-sqlite3', database: file }, { ttl: 2000 });
    try {
      expect((await getTask(second, id)).body.result).toEqual(done);
      await sleep(2100 - (Date.now() - Date.parse(done.createdAt)));
      expect((await getTask(second, id)).body.error).toEqual({ code: -32602, message: 'Task not found' });
    } finally {
      await second.close();
    }
  });
});
