import { longTask, statusOf } from '../support/tasks.js';
import { acknowledged } from '../support/listen-ack.js';
import { said, TASKS, type Target } from '../support/target.js';

/** Answers compared byte for byte: the error object (the id is the caller's own). */
/** A well-formed id no task has. */
const NO_SUCH_TASK = 'AAAAAAAAAAAAAAAAAAAAAAAA';

const errorBytes = (json: any): string => JSON.stringify(json?.error ?? json?.result ?? null);

/**
 * Owner isolation: a task belongs to (subject, server, client, resource). Anyone else — another subject, or the
 * same subject through another OAuth client — gets, byte for byte, the answer for a task that does not exist, on
 * every follow-up, and cannot follow it; the owner's task is untouched.
 */
export async function isolation(t: Target): Promise<void> {
  const taskId = await longTask(t);
  const attempts: Array<[string, string, Record<string, unknown>]> = [
    ['read', 'tasks/get', {}],
    ['answer', 'tasks/update', { inputResponses: { approve: { action: 'accept', content: {} } } }],
    ['cancel', 'tasks/cancel', {}],
  ];
  // What each follow-up answers for a task that does not exist: the intruders must get exactly this.
  const notFound = new Map<string, string>();
  for (const [, method, params] of attempts) {
    const unknown = await t.rpc(method, { ...params, taskId: NO_SUCH_TASK }, { caps: TASKS, id: 7 });
    notFound.set(method, errorBytes(unknown.json));
    const ok = unknown.json?.error?.code === -32602 && unknown.json?.error?.message === 'Task not found';
    t.check(`isolation: ${method} of an unknown task is -32602 Task not found`, ok, said(unknown));
  }
  const intruders: Array<[string, string]> = [
    ['another subject', t.token({ sub: 'mallory' })],
    ['the same subject through another client', t.token({ client: 'other-app' })],
  ];
  for (const [who, token] of intruders) {
    for (const [what, method, params] of attempts) {
      const r = await t.rpc(method, { ...params, taskId }, { caps: TASKS, token, id: 7 });
      const same = errorBytes(r.json) === notFound.get(method);
      t.check(`isolation: ${who} cannot ${what} the task (byte for byte an unknown task)`, same, said(r));
    }
    const heard = await acknowledged(t, [taskId], token);
    t.check(
      `isolation: ${who} cannot listen to the task`,
      heard?.length === 0,
      `acknowledged ${JSON.stringify(heard)}`,
    );
  }
  const owner = await acknowledged(t, [taskId], t.token());
  t.check(
    'isolation: the owner can listen to it (control)',
    owner?.[0] === taskId,
    `acknowledged ${JSON.stringify(owner)}`,
  );
  const status = await statusOf(t, taskId);
  t.check("isolation: the owner's task still runs after the attempts", status === 'working', `status ${status}`);
  await t.rpc('tasks/cancel', { taskId }, { caps: TASKS });
}
