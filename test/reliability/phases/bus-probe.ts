import { setTimeout as sleep } from 'node:timers/promises';
import { rpc, TASKS, type RawReply, type Target } from '../support/http.js';
import type { PhaseTally } from '../support/tally.js';

const CAPS = { ...TASKS, elicitation: {} };

/** `ok`, the JSON-RPC error code, `HTTP <status>`, or `no answer`. */
export function outcomeLabel(r: RawReply): string {
  if (r.status === undefined) return 'no answer';
  if (r.status >= 500) return `HTTP ${r.status}`;
  if (r.json?.error) return String(r.json.error.code);
  return r.json?.result ? 'ok' : `HTTP ${r.status} without JSON-RPC`;
}

/**
 * A task created on A asks a question; it is answered through B; how long until it completes (seen
 * from B). Well under the server poll means B's event reached A's waiting run through the bus.
 */
export async function probeBusWake(a: Target, b: Target, token: string, t: PhaseTally): Promise<number> {
  const created = await rpc(
    a,
    t,
    'tools/call',
    { name: 'confirm_delete', arguments: { filename: 'probe' } },
    { caps: CAPS, token, label: 'probe' },
  );
  const id = created.json?.result?.taskId;
  if (!id) throw new Error(`probe not created: ${created.text.slice(0, 200)}`);
  t.started('confirm_delete');
  const status = async () =>
    (await rpc(b, t, 'tasks/get', { taskId: id }, { caps: CAPS, token, label: 'probe' })).json?.result?.status;
  for (let i = 0; i < 200 && (await status()) !== 'input_required'; i++) await sleep(25);
  const answered = await rpc(
    b,
    t,
    'tasks/update',
    { taskId: id, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
    { caps: CAPS, token, label: 'probe' },
  );
  if (answered.json?.result?.resultType !== 'complete')
    throw new Error(`probe not answered: ${answered.text.slice(0, 200)}`);
  const t0 = Date.now();
  let s = await status();
  while (s !== 'completed' && s !== 'failed' && Date.now() - t0 < 20_000) {
    await sleep(20);
    s = await status();
  }
  t.ended(s ?? 'unknown');
  return Date.now() - t0;
}
