// mcp-remote, the stdio↔HTTP bridge that stdio-only hosts run to reach a remote server: started as a stdio server
// (`mcp-remote <url> --transport http-only`) and driven over stdio by the v1 SDK's stdio client, which offers each
// revision in turn; the bridge carries the messages across to the demo over Streamable HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { VERSIONS_2025 } from '../support/cases.mjs';
import { offering } from '../support/offering.mjs';
import { answering, asks, v1Cases } from '../support/v1-cases.mjs';

const url = process.argv[2];
const BRIDGE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/mcp-remote/dist/proxy.js');
// Its OAuth state (~/.mcp-auth) stays out of the user's home.
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-remote-home-'));

for (const version of VERSIONS_2025) {
  await v1Cases('mcp-remote', version, url, {
    tasks: version === '2025-11-25',
    async connect() {
      const capabilities = asks(version) ? { elicitation: { form: {} } } : {};
      const client = new Client({ name: 'clients-suite', version: '1.0.0' }, { capabilities });
      if (asks(version)) answering(client);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BRIDGE, url, '--transport', 'http-only', '--allow-http'],
        env: { ...process.env, HOME: home },
        stderr: 'ignore',
      });
      await client.connect(offering(transport, version));
      return client;
    },
  });
}
fs.rmSync(home, { recursive: true, force: true });
