import { setTimeout as sleep } from 'node:timers/promises';
import { rpc, TASKS, type Target } from './http.js';
import type { PhaseTally } from './tally.js';

/** Tasks, and the elicitation `rel_durable` asks when told to. */
export const DURABLE_CAPS = { ...TASKS, elicitation: {} };
export const TERMINAL = ['completed', 'failed', 'cancelled'];

/** `rel_durable`'s arguments (see the fixture's `RelDurableDto`). */
export interface DurableArgs {
  steps: number;
  stepMs: number;
  ask?: boolean;
  checkpoint?: boolean;
  label?: string;
}

/** Starts a task of `tool` on `target` (as the owner of `token`, with auth); its id, or throws what came instead. */
export async function startTask(
  target: Target,
  t: PhaseTally,
  tool: string,
  args: object,
  token?: string,
): Promise<string> {
  const r = await rpc(target, t, 'tools/call', { name: tool, arguments: args }, { caps: DURABLE_CAPS, token });
  const id: unknown = r.json?.result?.taskId;
  if (typeof id !== 'string') throw new Error(`${tool} started no task: ${r.status} ${r.text.slice(0, 200)}`);
  t.started(tool);
  return id;
}

/** The task as `tasks/get` shows it, or undefined (no answer, or an error). */
export async function getTask(target: Target, t: PhaseTally, id: string, token?: string): Promise<any> {
  return (await rpc(target, t, 'tasks/get', { taskId: id }, { caps: DURABLE_CAPS, token })).json?.result;
}

/** Answers `rel_durable`'s question `go` with `go`; whether the server took the answer. */
export async function answerGo(
  target: Target,
  t: PhaseTally,
  id: string,
  go: string,
  token?: string,
): Promise<boolean> {
  const inputResponses = { go: { action: 'accept', content: { go } } };
  const r = await rpc(target, t, 'tasks/update', { taskId: id, inputResponses }, { caps: DURABLE_CAPS, token });
  return r.status === 200 && r.json?.result !== undefined && !r.json?.error;
}

/** Polls `tasks/get` until `done(task)` or `ms` pass; the last task seen. */
export async function untilTask(
  target: Target,
  t: PhaseTally,
  id: string,
  done: (task: any) => boolean,
  ms = 10_000,
  token?: string,
): Promise<any> {
  const end = Date.now() + ms;
  for (;;) {
    const task = await getTask(target, t, id, token);
    if ((task && done(task)) || Date.now() > end) return task;
    await sleep(50);
  }
}

/** Polls `check` every 100 ms until it is true or `ms` pass; whether it came true. */
export async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await sleep(100);
  }
}
