// mcp-remote, the stdio↔HTTP bridge that stdio-only hosts run to reach a remote server: started as a stdio server
// (`mcp-remote <url> --transport http-only`) and driven over stdio by the v1 SDK's stdio client, which offers each
// revision in turn; the bridge carries the messages across to the demo over Streamable HTTP. With `--protocol auto`
// the bridge itself speaks 2026-07-28 to the server (server/discover, then input_required rounds it asks its stdio
// client as elicitation/create), while its stdio side stays 2025-11-25.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { VERSIONS_2025, cancelSent, rawCall } from '../support/cases.mjs';
import { TASK_CASES, knownCases } from '../support/common-cases.mjs';
import { sdkCases, v1Client, v1Suite } from '../support/sdk-cases.mjs';

const url = process.argv[2];
const BRIDGE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/mcp-remote/dist/proxy.js');
// Its OAuth state (~/.mcp-auth) stays out of the user's home.
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-remote-home-'));
const SRC = 'mcp-remote 0.15.1 dist/chunk-KJCT2FXL.js';
const NO_TASKS =
  'with --protocol auto the bridge has no 2026-07-28 tasks ("io.modelcontextprotocol/tasks" is nowhere in it): it ' +
  `declares no Tasks extension upstream and forwards params.task and tasks/* as they came (${SRC}, sendToServer); ` +
  'the server answers such a 2026-07-28 tools/call with a result, not a task';
const NO_CANCEL =
  `with --protocol auto the bridge forwards its stdio client's notifications/cancelled as a POST and leaves the ` +
  `call's response stream open (${SRC}, forwardInOrder → sendToServer); over Streamable HTTP at 2026-07-28 ` +
  'closing that stream is the cancellation, and no notifications/cancelled is expected';
const bridge = (...extra) =>
  new StdioClientTransport({
    command: process.execPath,
    args: [BRIDGE, url, '--transport', 'http-only', '--allow-http', ...extra],
    env: { ...process.env, HOME: home },
    stderr: 'ignore',
  });

await v1Suite('mcp-remote', url, VERSIONS_2025, () => bridge());
await sdkCases('mcp-remote', '2026-07-28', url, {
  tasks: true,
  taskCases: (run) => knownCases(run, TASK_CASES, NO_TASKS),
  // Only the bridge's fault: a notifications/cancelled went out, and the run it named goes on.
  cancelFault: async (u, label) => {
    const line = (await rawCall(u, 'countdown_log')).split('\n').find((l) => l.startsWith(`${label} `));
    return (await cancelSent(u, 'countdown')) && line?.endsWith(': running') ? NO_CANCEL : undefined;
  },
  async connect() {
    const client = v1Client('2025-11-25');
    await client.connect(bridge('--protocol', 'auto'));
    return client;
  },
});
fs.rmSync(home, { recursive: true, force: true });
