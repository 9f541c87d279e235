import type { Running } from '../contestants/process.js';
import { call, TASKS_CAPS, taskCancel, toolCall } from '../load/rpc.js';

/** Starts `n` long-running tasks (`slow_compute`, an hour, or `tool`: the same served under another name). */
export async function startLongTasks(
  run: Running,
  n: number,
  token?: string,
  tool = 'slow_compute',
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await call<{ resultType: string; taskId?: string }>(
      run.client,
      toolCall(tool, { seconds: 3600, label: `bench-${i}` }, { caps: TASKS_CAPS, token }),
    );
    if (r.resultType !== 'task' || !r.taskId)
      throw new Error(`${tool} did not start a task: ${JSON.stringify(r).slice(0, 200)}`);
    ids.push(r.taskId);
  }
  return ids;
}

/** Cancels tasks so they stop counting against the owner's cap. */
export async function cancelAll(run: Running, ids: string[], token?: string): Promise<void> {
  for (const id of ids) await call(run.client, taskCancel(id, { token }));
}
