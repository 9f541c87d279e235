import { TASKS, type Target } from './target.js';

/** A long `export_project` task owned by `token`'s caller (about a minute unless cancelled); its id. */
export async function longTask(t: Target, token = t.token()): Promise<string> {
  const r = await t.rpc(
    'tools/call',
    { name: 'export_project', arguments: { project: 'secret-plans', files: 300, delayMs: 200 } },
    { caps: TASKS, token },
  );
  const id = r.json?.result?.taskId;
  if (typeof id !== 'string') throw new Error(`no task was created: ${r.status} ${r.text.slice(0, 200)}`);
  return id;
}

/** The task's status as its owner reads it. */
export async function statusOf(t: Target, taskId: string, token = t.token()): Promise<string | undefined> {
  const r = await t.rpc('tasks/get', { taskId }, { caps: TASKS, token });
  return r.json?.result?.status;
}
