import { setTimeout as sleep } from 'node:timers/promises';
import { rpc, TASKS, type RawReply, type Target } from '../support/http.js';
import type { PhaseTally } from '../support/tally.js';
import { answerFor, mismatch, pickScenario, type Scenario } from './scenarios.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const CAPS = { ...TASKS, elicitation: {} };

/** What every client of one load run shares. */
export interface LoadShared {
  targets: Target[];
  tally: PhaseTally;
  /** Clients start no new task after this (epoch ms). */
  until: number;
  /** A task that shows no change for this long counts as stuck. */
  stuckMs: number;
  /** Retry requests that failed for want of the database (transport error, 5xx, -32603) until this time. */
  retryUntil?: () => number;
  /** Live tasks by id → owning client, for the isolation attacks. */
  live: Map<string, number>;
  /** At each poll, the chance to attack another client's live task. */
  attackRate: number;
  attack?: (attacker: LoadClient, victimTask: string, victim: number) => Promise<void>;
  /** Findings (first few of each kind kept verbatim). */
  problems: Map<string, { count: number; examples: string[] }>;
  retries: number;
  /** An end other than the driven one that is right all the same (e.g. its instance was killed). */
  excused?: (task: any, createdOn: Target) => boolean;
  excusedCount?: number;
  /** Poll this often instead of the task's `pollIntervalMs`. */
  pollMs?: number;
  /** Sees every reply with when its request was sent. */
  onReply?: (sentAt: number, method: string, reply: RawReply) => void;
}

export function problem(shared: LoadShared, kind: string, example: string): void {
  const p = shared.problems.get(kind) ?? { count: 0, examples: [] };
  p.count++;
  if (p.examples.length < 3) p.examples.push(example);
  shared.problems.set(kind, p);
}

let counter = 0;

/** One user: runs tasks one after another until `until`, each driven to the end it chose. */
export class LoadClient {
  constructor(
    readonly index: number,
    readonly token: string | undefined,
    private readonly s: LoadShared,
  ) {}

  async run(): Promise<void> {
    while (Date.now() < this.s.until) {
      await this.once(pickScenario(Math.random()), counter++);
    }
  }

  private target(): Target {
    return this.s.targets[Math.floor(Math.random() * this.s.targets.length)];
  }

  /** A request to a random instance; retried while `retryUntil` allows when the database was missing. */
  async call(method: string, params: Record<string, unknown>, on?: Target): Promise<RawReply> {
    for (;;) {
      const target = on && this.s.targets.includes(on) ? on : this.target();
      const sentAt = Date.now();
      const r = await rpc(target, this.s.tally, method, params, { caps: CAPS, token: this.token });
      this.s.onReply?.(sentAt, method, r);
      const retryable = r.status === undefined || r.status >= 500 || r.json?.error?.code === -32603;
      if (!retryable || !this.s.retryUntil || Date.now() > this.s.retryUntil()) return r;
      this.s.retries++;
      await sleep(200 + Math.random() * 200);
    }
  }

  private async once(s: Scenario, n: number): Promise<void> {
    const on = this.target();
    const created = await this.call('tools/call', { name: s.tool, arguments: s.args(n) }, on);
    const id: string | undefined = created.json?.result?.taskId;
    if (!id || created.json.result.resultType !== 'task') {
      problem(
        this.s,
        'protocol error on tools/call',
        `${created.status ?? created.transportError} ${created.text.slice(0, 200)}`,
      );
      await sleep(250);
      return;
    }
    this.s.tally.started(s.tool);
    this.s.live.set(id, this.index);
    try {
      await this.drive(s, n, id, on);
    } finally {
      this.s.live.delete(id);
    }
  }

  private async drive(s: Scenario, n: number, id: string, createdOn: Target): Promise<void> {
    const answered = new Set<string>();
    let cancelled = false;
    let lastChange = Date.now();
    let lastSeen = '';
    if (s.drive === 'cancel') {
      await sleep(s.cancelAfterMs ?? 0);
      cancelled = await this.ok('tasks/cancel', { taskId: id });
    }
    for (;;) {
      const r = await this.call('tasks/get', { taskId: id });
      const task = r.json?.result;
      if (!task) {
        problem(
          this.s,
          'protocol error on tasks/get',
          `${id}: ${r.status ?? r.transportError} ${r.text.slice(0, 200)}`,
        );
        await sleep(200);
      } else if (TERMINAL.has(task.status)) {
        this.s.tally.ended(task.status);
        const wrong = mismatch(s, n, task);
        if (wrong && this.s.excused?.(task, createdOn)) this.s.excusedCount = (this.s.excusedCount ?? 0) + 1;
        else if (wrong) {
          problem(
            this.s,
            `task did not end as driven (${s.name})`,
            `${id} (created on ${(createdOn as { name?: string }).name ?? '?'}): ${wrong}`,
          );
          if (answered.size > 0 && !cancelled) this.s.tally.lostAnswers++;
        }
        return;
      } else if (task.status === 'input_required') {
        const keys = Object.keys(task.inputRequests ?? {});
        for (const k of keys.filter((k) => answered.has(k)))
          problem(this.s, 'input key asked again after it was answered', `${id}: ${k} (asked ${keys.join(',')})`);
        if (s.drive === 'cancel-waiting' && !cancelled) cancelled = await this.ok('tasks/cancel', { taskId: id });
        if ((s.drive === 'answer' || s.drive === 'decline') && keys.some((k) => !answered.has(k))) {
          const responses = Object.fromEntries(
            keys.map((k) => [k, answerFor(k, task.inputRequests[k], s.drive === 'decline')]),
          );
          // An earlier key answered again must be ignored (the first answer stands).
          for (const k of answered)
            responses[k] = { action: 'accept', content: { value: 'changed-later', confirm: false } };
          if (await this.ok('tasks/update', { taskId: id, inputResponses: responses }))
            keys.forEach((k) => answered.add(k));
        }
      }
      if (this.s.attack && Math.random() < this.s.attackRate) await this.attackSomeone();
      const seen = JSON.stringify([task?.status, Object.keys(task?.inputRequests ?? {})]);
      if (seen !== lastSeen) [lastSeen, lastChange] = [seen, Date.now()];
      if (Date.now() - lastChange > this.s.stuckMs) {
        this.s.tally.stuck++;
        problem(this.s, 'stuck task', `${id} (${s.name}) still ${seen} after ${this.s.stuckMs} ms`);
        return;
      }
      await sleep((this.s.pollMs ?? task?.pollIntervalMs ?? 250) * (0.5 + Math.random()));
    }
  }

  /** A call whose only good answer is the `{ resultType: "complete" }` ack. */
  private async ok(method: string, params: Record<string, unknown>): Promise<boolean> {
    const r = await this.call(method, params);
    if (r.json?.result?.resultType === 'complete') return true;
    problem(
      this.s,
      `protocol error on ${method}`,
      `${String(params.taskId)}: ${r.status ?? r.transportError} ${r.text.slice(0, 200)}`,
    );
    return false;
  }

  private async attackSomeone(): Promise<void> {
    const others = [...this.s.live.entries()].filter(([, owner]) => owner !== this.index);
    if (others.length === 0) return;
    const [victimTask, victim] = others[Math.floor(Math.random() * others.length)];
    await this.s.attack!(this, victimTask, victim);
  }
}
