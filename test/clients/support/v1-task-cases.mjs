// 2025-11-25 tasks through the v1 Client's `experimental.tasks` (params.task, tasks/get, tasks/result, tasks/cancel).
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { RELEASE_TEXT, expect, expectStopped, labelFor, textOf } from './cases.mjs';

/** 2025-11-25 tasks through `client.experimental.tasks`. */
export async function v1TaskCases(run, client, url, name, version) {
  const tasks = client.experimental.tasks;
  const follow = async (params) => {
    const seen = [];
    let result;
    for await (const m of tasks.callToolStream(params, CallToolResultSchema, { task: { ttl: 120_000 } })) {
      const step = m.type === 'taskStatus' ? m.task.status : m.type;
      if (seen.at(-1) !== step) seen.push(step);
      if (m.type === 'result') result = m.result;
      if (m.type === 'error') throw m.error;
    }
    return { result, seen };
  };
  await run('question (task)', async () => {
    const { result, seen } = await follow({ name: 'publish_release', arguments: { version: '1.2.0' } });
    expect(textOf(result) === RELEASE_TEXT, `got ${JSON.stringify(result ?? null).slice(0, 300)}`);
    expect(seen[0] === 'taskCreated', `no task was created: ${seen.join(' ')}`);
    return `${seen.join(' → ')}: ${textOf(result)}`;
  });
  await run('task to its end', async () => {
    const { result, seen } = await follow({ name: 'countdown', arguments: { seconds: 2 } });
    expect(textOf(result) === 'Counted down 2 s.', `got ${JSON.stringify(result ?? null).slice(0, 300)}`);
    expect(seen[0] === 'taskCreated', `no task was created: ${seen.join(' ')}`);
    return seen.join(' → ');
  });
  await run('cancel (tasks/cancel)', async () => {
    const label = labelFor(name, version, 'task-cancel');
    const stream = tasks.callToolStream(
      { name: 'countdown', arguments: { seconds: 60, label } },
      CallToolResultSchema,
      {
        task: { ttl: 120_000 },
      },
    );
    const first = await stream[Symbol.asyncIterator]().next();
    const taskId = first.value?.task?.taskId;
    expect(taskId, `no task: ${JSON.stringify(first.value ?? null).slice(0, 200)}`);
    await tasks.cancelTask(taskId);
    const stopped = await expectStopped(url, label);
    const status = (await tasks.getTask(taskId)).status;
    expect(status === 'cancelled', `task ${status}`);
    return `task ${status}; server: ${stopped}`;
  });
}
