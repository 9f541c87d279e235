import { longTask, statusOf } from '../support/tasks.js';
import { said, TASKS, type Target } from '../support/target.js';
import { modernRequest } from '../../reliability/support/http.js';

const ATTACKER = 'attacker.example';

interface Route {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * DNS rebinding: a page on a foreign origin whose name now resolves to this machine is same-origin to the
 * browser and reaches the server from loopback. Every route the module serves refuses a foreign `Host` and a
 * foreign `Origin` with 403 — even with a valid admin token — while the same request with the server's own
 * host is served.
 */
export async function rebinding(t: Target): Promise<void> {
  const taskId = await longTask(t);
  const admin = { authorization: `Bearer ${t.adminToken()}` };
  const call = modernRequest('tools/list', {}, { token: t.token() });
  const routes: Route[] = [
    {
      name: 'MCP endpoint',
      method: 'POST',
      path: '/mcp',
      headers: call.headers as Record<string, string>,
      body: call.body,
    },
    { name: 'resource metadata', method: 'GET', path: '/.well-known/oauth-protected-resource/mcp' },
    { name: 'resource metadata (bare)', method: 'GET', path: '/.well-known/oauth-protected-resource' },
    { name: 'console page', method: 'GET', path: '/mcp-console/' },
    { name: 'console asset', method: 'GET', path: '/mcp-console/assets/console.js' },
    { name: 'console overview', method: 'GET', path: '/mcp-console/api/overview', headers: admin },
    { name: 'console activity', method: 'GET', path: '/mcp-console/api/activity', headers: admin },
    { name: 'console task list', method: 'GET', path: '/mcp-console/api/tasks', headers: admin },
    { name: 'console task detail', method: 'GET', path: `/mcp-console/api/tasks/${taskId}`, headers: admin },
    {
      name: 'console cancel',
      method: 'POST',
      path: `/mcp-console/api/tasks/${taskId}/cancel`,
      headers: { ...admin, 'x-mcp-console': '1' },
    },
  ];
  for (const r of routes) {
    const foreignHost = await t.http(r.method, r.path, { ...r.headers, host: `${ATTACKER}:${t.port}` }, r.body);
    t.check(`rebinding: ${r.name} refuses Host ${ATTACKER}`, foreignHost.status === 403, said(foreignHost));
    const foreignOrigin = await t.http(r.method, r.path, { ...r.headers, origin: `http://${ATTACKER}` }, r.body);
    t.check(
      `rebinding: ${r.name} refuses Origin http://${ATTACKER}`,
      foreignOrigin.status === 403,
      said(foreignOrigin),
    );
  }
  const alive = await statusOf(t, taskId);
  t.check('rebinding: the refused console cancels left the task running', alive === 'working', `status ${alive}`);
  // The control: the same requests from the server's own origin are served (so the 403s above are the host rule).
  for (const r of routes) {
    const own = await t.http(r.method, r.path, { ...r.headers, origin: `http://${t.hostHeader}` }, r.body);
    t.check(`rebinding: ${r.name} serves its own origin`, own.status! >= 200 && own.status! < 300, said(own));
  }
  await t.rpc('tasks/cancel', { taskId }, { caps: TASKS });
}
