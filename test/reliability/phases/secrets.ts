import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { LEAK_FORMS } from '../fixture-app/reliability.dto.js';
import type { RunContext } from '../support/context.js';
import { DemoProcess } from '../support/demo-process.js';
import { rpc, sendRaw, TASKS, type RawReply } from '../support/http.js';
import type { PhaseTally } from '../support/tally.js';

const LEGACY = '2025-11-25';

/**
 * Tools that throw a server-side secret (a connection string) in every common form — in the request,
 * as a task, in `prepare`, and through a 2025-era client — and nothing of it reaches the wire: the
 * caller sees `-32603 Internal error`, the server log has the text.
 */
export async function secrets(ctx: RunContext): Promise<void> {
  const { report } = ctx;
  const t = report.phase('secrets');
  const secret = `s3cr3t-${randomBytes(12).toString('hex')}`;
  const demo = await DemoProcess.start({ name: 'secrets', env: { MCP_RELIABILITY_SECRET: secret } });
  const leaks: string[] = [];
  const outcomes = new Map<string, number>();
  const seen = (where: string, r: RawReply) => {
    if (r.text.includes(secret) || /db:\/\/|admin:|QueryFailedError|\bat [\w.$<>]+ \(/.test(r.text))
      leaks.push(`${where}: ${r.status} ${r.text.slice(0, 300)}`);
  };
  const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  try {
    for (const form of LEAK_FORMS) {
      const sync = await rpc(demo, t, 'tools/call', { name: 'rel_leak_sync', arguments: { form } });
      seen(`sync ${form}`, sync);
      count(`sync → ${sync.status} ${sync.json?.error?.code} ${sync.json?.error?.message}`);
      const prepare = await rpc(
        demo,
        t,
        'tools/call',
        { name: 'rel_leak_prepare', arguments: { form } },
        { caps: TASKS },
      );
      seen(`prepare ${form}`, prepare);
      count(`prepare → ${prepare.status} ${prepare.json?.error?.code} ${prepare.json?.error?.message}`);
      const created = await rpc(demo, t, 'tools/call', { name: 'rel_leak_task', arguments: { form } }, { caps: TASKS });
      seen(`task ${form} (create)`, created);
      const task = await finalTask(demo, created.json?.result?.taskId, t, (r) => seen(`task ${form}`, r));
      count(`task → ${task?.status} ${task?.error?.code} ${task?.error?.message}`);
      t.started('rel_leak_task');
      t.ended(task?.status ?? 'unknown');
      const legacy = await legacyCall(demo, form);
      t.request('legacy tools/call', legacy.status, legacy.json?.error?.code, legacy.ms);
      seen(`2025-era ${form}`, legacy);
      const code = legacy.json?.error?.code ?? (legacy.json?.result?.isError ? 'isError' : '');
      const message = legacy.json?.error?.message ?? legacy.json?.result?.content?.[0]?.text ?? '';
      count(`2025-era → ${legacy.status} ${code} ${message}`);
    }
    t.note('answers seen', [...outcomes.entries()].map(([k, v]) => `${k} ×${v}`).join('; '));
    report.check(
      t,
      'the thrown secret never reached the wire (sync, task, prepare, 2025-era)',
      leaks.length === 0,
      leaks.length
        ? `${leaks.length} leaks:\n    ${leaks.slice(0, 6).join('\n    ')}`
        : `${LEAK_FORMS.length} forms × 4 paths`,
    );
    const internal = [...outcomes.keys()]
      .filter((k) => !k.startsWith('2025-era'))
      .every((k) => k.endsWith(' -32603 Internal error'));
    report.check(
      t,
      'each was answered -32603 "Internal error" (task: failed with it)',
      internal,
      [...outcomes.keys()].filter((k) => !k.endsWith(' -32603 Internal error')).join('; '),
    );
    report.check(
      t,
      'control: the server logged the secret (the tools really threw it)',
      demo.stderr.includes(secret),
      '',
    );
  } finally {
    await demo.stop();
  }
}

async function finalTask(
  demo: DemoProcess,
  id: string | undefined,
  t: PhaseTally,
  seen: (r: RawReply) => void,
): Promise<any> {
  if (!id) return undefined;
  for (let i = 0; i < 200; i++) {
    const r = await rpc(demo, t, 'tasks/get', { taskId: id }, { caps: TASKS });
    seen(r);
    if (['completed', 'failed', 'cancelled'].includes(r.json?.result?.status)) return r.json.result;
    await sleep(25);
  }
  return undefined;
}

/** A 2025-era client's tools/call (no 2026-07-28 envelope: served through the SDK's stateless fallback). */
function legacyCall(demo: DemoProcess, form: string): Promise<RawReply> {
  return sendRaw(demo, {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LEGACY,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'rel_leak_sync', arguments: { form } },
    }),
  });
}
