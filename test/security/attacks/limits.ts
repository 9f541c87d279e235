import { modernRequest } from '../../reliability/support/http.js';
import { said, TASKS, type Target } from '../support/target.js';

/** Size and depth limits answer as protocol errors, with no 5xx and no crash. */
export async function limits(t: Target): Promise<void> {
  const big = modernRequest(
    'tools/call',
    { name: 'word_count', arguments: { text: 'word '.repeat(2_200_000 / 5) } },
    { token: t.token() },
  );
  const tooBig = await t.http('POST', '/mcp', big.headers as Record<string, string>, big.body);
  t.check(
    'limits: a 2 MB body is 413 -32600',
    tooBig.status === 413 && tooBig.json?.error?.code === -32600,
    said(tooBig),
  );
  let deep: unknown = 'bottom';
  for (let i = 0; i < 200; i++) deep = { d: deep };
  const nested = await t.rpc('tools/call', { name: 'word_count', arguments: { text: 'x', deep } });
  const ok = nested.status === 400 && nested.json?.error?.code === -32602;
  t.check('limits: arguments nested 200 deep are 400 -32602', ok, said(nested));
  const nul = await t.rpc('tasks/get', { taskId: 'abc\u0000def' }, { caps: TASKS });
  t.check('limits: a task id with a NUL is Task not found', nul.json?.error?.message === 'Task not found', said(nul));
  const alive = await t.rpc('tools/list', {});
  t.check('limits: the server still answers afterwards', alive.status === 200, said(alive));
}
