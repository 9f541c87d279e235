import { longTask, statusOf } from '../support/tasks.js';
import { said, TASKS, type Target } from '../support/target.js';

/**
 * The console's access rule: its data and actions need a token carrying the console scope (the demo: `mcp:admin`);
 * an action also needs `x-mcp-console: 1`, which a cross-site form cannot send.
 */
export async function consoleAccess(t: Target): Promise<void> {
  const taskId = await longTask(t);
  const api = `/mcp-console/api/tasks/${taskId}`;
  const anonymous = await t.http('GET', api);
  t.check('console: no token is 401', anonymous.status === 401, said(anonymous));
  const user = await t.http('GET', api, { authorization: `Bearer ${t.token()}` });
  t.check('console: a token without the console scope is 403', user.status === 403, said(user));
  const wrongAud = await t.http('GET', api, {
    authorization: `Bearer ${t.token({ scope: 'mcp:admin', aud: 'http://other-server.example/mcp' })}`,
  });
  t.check('console: an admin token for another resource is 401', wrongAud.status === 401, said(wrongAud));
  const admin = { authorization: `Bearer ${t.adminToken()}` };
  const read = await t.http('GET', api, admin);
  t.check('console: an admin reads the task (control)', read.status === 200, said(read));
  const noMarker = await t.http('POST', `${api}/cancel`, admin);
  t.check('console: a cancel without x-mcp-console is 403', noMarker.status === 403, said(noMarker));
  const byUser = await t.http('POST', `${api}/cancel`, { authorization: `Bearer ${t.token()}`, 'x-mcp-console': '1' });
  t.check('console: a cancel by a non-admin is 403', byUser.status === 403, said(byUser));
  const still = await statusOf(t, taskId);
  t.check('console: the refused cancels left the task running', still === 'working', `status ${still}`);
  const cancel = await t.http('POST', `${api}/cancel`, { ...admin, 'x-mcp-console': '1' });
  const after = await statusOf(t, taskId);
  t.check(
    'console: an admin cancels it (control)',
    cancel.status === 200 && after === 'cancelled',
    `${said(cancel)}, ${after}`,
  );
  await t.rpc('tasks/cancel', { taskId }, { caps: TASKS });
}
