import { setTimeout as sleep } from 'node:timers/promises';
import { TASKS, type RawReply } from '../support/http.js';
import type { Rotation } from '../support/rotation.js';
import type { PhaseTally } from '../support/tally.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const STATUSES = new Set([...TERMINAL, 'working', 'input_required']);

/** One `rel_durable` task a client starts `at` ms into the run. */
export interface PlannedTask {
  label: string;
  at: number;
  args: { steps: number; stepMs: number; checkpoint: boolean; label: string };
}

/** What the client saw of one task. */
export interface SeenTask {
  label: string;
  checkpoint: boolean;
  id?: string;
  /** The last status read (terminal, unless it never ended). */
  status?: string;
  result?: any;
  error?: unknown;
  polls: number;
  /** A poll showed the status message a takeover writes ("Resumed after its instance stopped …"). */
  sawResumed: boolean;
}

/** Client errors: kind → count and the first few, verbatim. */
export type ClientErrors = Map<string, { count: number; examples: string[] }>;

export function clientError(errors: ClientErrors, kind: string, example: string): void {
  const e = errors.get(kind) ?? { count: 0, examples: [] };
  e.count++;
  if (e.examples.length < 3) e.examples.push(example);
  errors.set(kind, e);
}

const shown = (r: RawReply) => `${r.status ?? r.transportError} ${r.text.slice(0, 200)}`;

/**
 * One user behind the load balancer: starts its tasks on schedule and polls each (`tasks/get`, about every
 * `pollMs`) until it ends or `deadline` passes. Any answer but a valid task is a client error.
 */
export class DeployClient {
  constructor(
    private readonly token: string,
    private readonly lb: Rotation,
    private readonly tally: PhaseTally,
    private readonly errors: ClientErrors,
    private readonly o: { pollMs: number; deadline: () => number },
  ) {}

  run(plan: PlannedTask[], t0: number): Promise<SeenTask[]> {
    return Promise.all(plan.map((p) => this.one(p, t0)));
  }

  private async one(p: PlannedTask, t0: number): Promise<SeenTask> {
    const seen: SeenTask = { label: p.label, checkpoint: p.args.checkpoint, polls: 0, sawResumed: false };
    await sleep(Math.max(0, t0 + p.at - Date.now()));
    const created = await this.send('tools/call', { name: 'rel_durable', arguments: p.args });
    const result = created.json?.result;
    if (created.status !== 200 || result?.resultType !== 'task' || typeof result.taskId !== 'string') {
      clientError(this.errors, 'tools/call: no task', `${p.label}: ${shown(created)}`);
      return seen;
    }
    seen.id = result.taskId;
    this.tally.started('rel_durable');
    while (Date.now() < this.o.deadline()) {
      await sleep(this.o.pollMs * (0.5 + Math.random()));
      const r = await this.send('tasks/get', { taskId: seen.id });
      seen.polls++;
      const task = r.json?.result;
      if (r.status !== 200 || r.json?.error || !STATUSES.has(task?.status)) {
        clientError(this.errors, 'tasks/get: not a task', `${p.label} ${seen.id}: ${shown(r)}`);
        continue;
      }
      seen.status = task.status;
      if (String(task.statusMessage ?? '').startsWith('Resumed after')) seen.sawResumed = true;
      if (TERMINAL.has(task.status)) {
        [seen.result, seen.error] = [task.result, task.error];
        this.tally.ended(task.status);
        return seen;
      }
    }
    clientError(this.errors, 'task did not end in time', `${p.label} ${seen.id}: last ${seen.status}`);
    return seen;
  }

  private send(method: string, params: Record<string, unknown>): Promise<RawReply> {
    return this.lb.send(this.tally, method, params, { caps: TASKS, token: this.token });
  }
}
