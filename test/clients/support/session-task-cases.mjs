// Tasks through the Tasks extension's client session (@modelcontextprotocol/ext-tasks `createTaskSessionFromClient`):
// the 2026-07-28 extension, or 2025-11-25 tasks (params.task, tasks/get, tasks/result, tasks/cancel) on a Client that
// initialized at 2025-11-25 with a server that declared `tasks`.
import { RELEASE_TEXT, expect, expectStopped, labelFor, textOf } from './cases.mjs';

// A 2025-11-25 tool whose taskSupport is optional is called as a task only when asked to (at 2026-07-28 the server
// decides, and the preference changes nothing).
const AS_TASK = { task: { preference: 'prefer' } };

export async function sessionTaskCases(run, session, url, name, version) {
  await run('question (task)', async () => {
    const ex = await session.callTool('publish_release', { version: '1.2.0' }, AS_TASK);
    expect(ex.kind === 'task', `not a task: ${ex.kind}`);
    const { outcome } = await ex.settle();
    expect(outcome.status === 'completed', `task ${outcome.status}`);
    expect(textOf(outcome.result) === RELEASE_TEXT, `got ${JSON.stringify(outcome.result ?? null).slice(0, 300)}`);
    return `task completed: ${textOf(outcome.result)}`;
  });
  await run('task to its end', async () => {
    const ex = await session.callTool('countdown', { seconds: 2 }, AS_TASK);
    expect(ex.kind === 'task', `not a task: ${ex.kind}`);
    const steps = [];
    const { outcome } = await ex.settle({
      onEvent: (ev) => {
        const step = ev.type === 'task' ? ev.task.status : ev.outcome.status;
        if (steps.at(-1) !== step) steps.push(step);
      },
    });
    expect(outcome.status === 'completed', `task ${outcome.status}`);
    expect(textOf(outcome.result) === 'Counted down 2 s.', `got ${JSON.stringify(outcome.result ?? null)}`);
    return steps.join(' → ');
  });
  await run('cancel (tasks/cancel)', async () => {
    const label = labelFor(name, version, 'task-cancel');
    const ex = await session.callTool('countdown', { seconds: 60, label }, AS_TASK);
    expect(ex.kind === 'task', `not a task: ${ex.kind}`);
    await ex.cancel();
    const outcome = await ex.result();
    expect(outcome.status === 'cancelled', `task ${outcome.status}`);
    return `task cancelled; server: ${await expectStopped(url, label)}`;
  });
}
