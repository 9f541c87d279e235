import { fileURLToPath } from 'node:url';
import { AppProcess } from '../../support/app-process.js';
import { modernRequest, sendRaw } from '../../reliability/support/http.js';
import { freshSecret, said, Target } from '../support/target.js';

const OUTSIDE = fileURLToPath(new URL('../support/outside-address.js', import.meta.url));
const OTHER = 'other-server.example';
const OURS = 'mcp.example';

type Verdict = (variant: string, attack: string, ok: boolean, detail?: string) => void;

/**
 * An audience taken from the request: the demo served beyond loopback with no `resource` (each request's URL is the
 * resource). A token minted by the same issuer for another resource server on the same path must not get in by
 * sending that server's name as `Host` — with no `allowedHosts` nothing is taken from `Host`, with them only they are.
 */
export async function derivedAudience(adapter: string, verdict: Verdict): Promise<void> {
  for (const allowed of [undefined, OURS]) {
    const variant = `${adapter}, beyond loopback, resource from the request, allowedHosts ${allowed ?? 'unset'}`;
    const secret = freshSecret();
    const app = await AppProcess.start({
      script: 'dist/src/main.js',
      nodeArgs: ['--import', OUTSIDE],
      env: {
        MCP_AUTH: '1',
        MCP_JWT_SECRET: secret,
        MCP_RESOURCE: 'derived',
        MCP_ALLOWED_HOSTS: allowed,
        MCP_ADAPTER: adapter,
      },
    });
    try {
      const t = new Target(variant, app.port, secret, (a, ok, d) => verdict(variant, a, ok, d));
      const send = (host: string, aud: string) =>
        sendRaw(t, modernRequest('tools/list', {}, { token: t.token({ aud }), headers: { host } }));
      const replay = await send(`${OTHER}:${app.port}`, `http://${OTHER}:${app.port}/mcp`);
      t.check(
        `audience: a token for ${OTHER}, sent with Host ${OTHER}, is refused`,
        replay.status === 403,
        said(replay),
      );
      const smuggled = await send(`${OURS}/tenant-b:${app.port}`, `http://${OURS}/tenant-b:${app.port}/mcp`);
      t.check('audience: a path smuggled into Host is refused', smuggled.status === 403, said(smuggled));
      const own = await send(`${OURS}:${app.port}`, `http://${OURS}:${app.port}/mcp`);
      if (allowed) t.check(`audience: a token for an allowed host is served (control)`, own.status === 200, said(own));
      else
        t.check(
          'audience: with no allowedHosts no host is trusted, and the refusal names the options',
          own.status === 403 && /allowedHosts/.test(own.json?.error?.message ?? ''),
          said(own),
        );
      const meta = await t.http('GET', '/.well-known/oauth-protected-resource/mcp', { host: `${OTHER}:${app.port}` });
      t.check(`audience: the metadata names no resource for Host ${OTHER}`, meta.status === 403, said(meta));
    } finally {
      await app.stop();
    }
  }
}
