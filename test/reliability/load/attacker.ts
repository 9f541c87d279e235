import { rpc, TASKS } from '../support/http.js';
import type { PhaseTally } from '../support/tally.js';
import { problem, type LoadClient, type LoadShared } from './client.js';

export type AttackVariant = 'other-subject' | 'same-subject-other-client';
const METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;
/** Answers that would change the outcome if they landed (a decline, a different value). */
const HOSTILE_ANSWERS = {
  confirm: { action: 'accept', content: { confirm: false } },
  k0: { action: 'accept', content: { value: 'hijacked' } },
  k1: { action: 'decline' },
  k2: { action: 'decline' },
};

/**
 * Reads, answers and cancels another user's live task — as another subject, and as the same subject
 * through another OAuth client. The only right answer is, byte for byte, the one for a task that does
 * not exist; the victim's own run then shows whether anything landed anyway.
 */
export function isolationAttack(
  shared: LoadShared,
  tally: PhaseTally,
  tokenOf: (sub: string, client: string) => string,
  counts: Map<string, number>,
) {
  let n = 0;
  return async (attacker: LoadClient, taskId: string, victim: number): Promise<void> => {
    const variant: AttackVariant = Math.random() < 0.7 ? 'other-subject' : 'same-subject-other-client';
    const method = METHODS[Math.floor(Math.random() * METHODS.length)];
    const token = variant === 'other-subject' ? attacker.token! : tokenOf(`user-${victim}`, 'another-client');
    const id = `attack-${n++}`;
    const params = method === 'tasks/update' ? { taskId, inputResponses: HOSTILE_ANSWERS } : { taskId };
    const target = shared.targets[n % shared.targets.length];
    const r = await rpc(target, tally, method, params, {
      caps: { ...TASKS, elicitation: {} },
      token,
      id,
      label: `attack ${method}`,
    });
    const expected = JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Task not found' } });
    counts.set(`${variant} ${method}`, (counts.get(`${variant} ${method}`) ?? 0) + 1);
    if (r.status !== 200 || r.text !== expected)
      problem(
        shared,
        'isolation: another owner got something other than "Task not found"',
        `${variant} ${method} on ${taskId}: ${r.status} ${r.text.slice(0, 300)}`,
      );
  };
}
