import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { demoToken } from '../src/demo-token.js';
import { startDemoProcess, textOf, type DemoProcess } from './support/demo-process.js';
import { freePort } from './support/free-port.js';
import { until } from './support/until.js';

/** The demo as a gateway: `MCP_UPSTREAM_URL` (and `MCP_UPSTREAM_TOKEN`) mount another server as `upstream_*`. */
describe('demo: MCP_UPSTREAM_URL and MCP_UPSTREAM_TOKEN', () => {
  let upstream: DemoProcess;
  let gateway: DemoProcess;
  beforeAll(async () => {
    // The upstream demo wants tokens (MCP_AUTH=1) minted for its own address, with the secret it is given.
    const port = await freePort();
    const secret = randomBytes(32).toString('base64url');
    const token = demoToken(port, { sub: 'gateway', scope: 'export deploy', secret });
    upstream = await startDemoProcess({ MCP_AUTH: '1', MCP_JWT_SECRET: secret }, port, token);
    gateway = await startDemoProcess({ MCP_UPSTREAM_URL: upstream.url, MCP_UPSTREAM_TOKEN: token });
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.stop();
  });

  it('serves the upstream tools as upstream_*, calling them with the static bearer token', async () => {
    const names = await until('upstream tools listed', async () => {
      const { tools } = await gateway.client.request('tools/list', {});
      const listed = (tools as Array<{ name: string }>).map((t) => t.name);
      return listed.includes('upstream_export_project') && listed;
    });
    expect(names).toContain('export_project');
    // export_project needs the `export` scope upstream: the token carries it.
    const text = await textOf(gateway.client, 'upstream_export_project', { project: 'p', files: 1, delayMs: 1 });
    expect(text).toBe('Exported 1 of 1 files of p.');
  });
});
