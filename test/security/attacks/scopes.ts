import { longTask, statusOf } from '../support/tasks.js';
import { said, TASKS, type Target } from '../support/target.js';

/**
 * Scopes on every step: a caller without a tool's scopes is refused (403 `insufficient_scope`) before its
 * arguments are looked at, on every follow-up of a task of that tool, and does not see the tool listed.
 */
export async function scopes(t: Target): Promise<void> {
  const unscoped = t.token({ scope: 'unrelated' });
  const badArgs = await t.rpc(
    'tools/call',
    { name: 'export_project', arguments: { project: 42, files: 'many' } },
    { caps: TASKS, token: unscoped },
  );
  const challenge = String(badArgs.headers['www-authenticate'] ?? '');
  t.check(
    'scopes: a call without the scope is 403 before its arguments are validated (no schema errors leak)',
    badArgs.status === 403 && challenge.includes('error="insufficient_scope"') && challenge.includes('scope="export"'),
    `${said(badArgs)} | ${challenge.slice(0, 100)}`,
  );
  // With the scope, the same arguments are a tool error result naming them: the 403 hid that much.
  const scoped = await t.rpc(
    'tools/call',
    { name: 'export_project', arguments: { project: 42, files: 'many' } },
    { caps: TASKS, token: t.token({ scope: 'export' }) },
  );
  const lines = ['export_project:', 'project: must be a string', 'files: must be an integer number'];
  t.check(
    'scopes: with the scope, the same arguments are a tool error result (isError, one line per property)',
    scoped.json?.result?.isError === true &&
      scoped.json.result.content?.[0]?.text === `Invalid arguments for tool ${lines.join('\n')}`,
    `${said(scoped)} ${JSON.stringify(scoped.json?.result?.content ?? null).slice(0, 200)}`,
  );
  t.check('scopes: the 403 says nothing of the arguments', !/project|files/.test(badArgs.text ?? ''), said(badArgs));
  const taskId = await longTask(t);
  for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
    const params = method === 'tasks/update' ? { taskId, inputResponses: {} } : { taskId };
    const r = await t.rpc(method, params, { caps: TASKS, token: t.token({ scope: 'deploy' }) });
    t.check(`scopes: the owner without the tool's scope gets 403 on ${method}`, r.status === 403, said(r));
  }
  const status = await statusOf(t, taskId);
  t.check('scopes: the refused cancel left the task running', status === 'working', `status ${status}`);
  const listed = await t.rpc('tools/list', {}, { token: unscoped });
  const names: string[] = (listed.json?.result?.tools ?? []).map((tool: { name: string }) => tool.name);
  t.check(
    'scopes: tools/list hides the tools a caller lacks the scopes for',
    names.length > 0 && !names.includes('export_project') && !names.includes('deploy'),
    `${names.length} tools listed`,
  );
  await t.rpc('tasks/cancel', { taskId }, { caps: TASKS });
}
