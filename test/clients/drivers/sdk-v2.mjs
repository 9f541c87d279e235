// The official v2 client (@modelcontextprotocol/client, the family of the @modelcontextprotocol/server this repo
// uses), with the Tasks extension's client session (@modelcontextprotocol/ext-tasks) for tasks. At 2026-07-28 by
// negotiation (versionNegotiation 'auto'); at each 2025-era revision by its plain initialize (the default 'legacy'
// mode) offering that revision alone (supportedProtocolVersions), where the same session does 2025-11-25 tasks.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import { QUESTION_ANSWER, VERSIONS_2025, messagesOf } from '../support/cases.mjs';
import { asks, sdkCases } from '../support/sdk-cases.mjs';
import { sessionTaskCases } from '../support/session-task-cases.mjs';

const url = process.argv[2];
const MODERN = '2026-07-28';
const info = { name: 'clients-suite', version: '1.0.0' };
let rawId = 0;

for (const version of [...VERSIONS_2025, MODERN]) {
  const capabilities = asks(version) ? { elicitation: { form: {} } } : {};
  let session;
  await sdkCases('sdk-v2', version, url, {
    tasks: version >= '2025-11-25',
    callTool: (client, params, options) => client.callTool(params, options),
    taskCases: (run) => sessionTaskCases(run, session, url, 'sdk-v2', version),
    async connect() {
      const client = new Client(info, {
        capabilities,
        ...(version === MODERN ? { versionNegotiation: { mode: 'auto' } } : { supportedProtocolVersions: [version] }),
      });
      if (asks(version))
        client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: QUESTION_ANSWER }));
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const framing = { protocolVersion: MODERN, clientInfo: info, clientCapabilities: capabilities };
      session = createTaskSessionFromClient(client, {
        endpointId: 'clients-suite',
        ...(version === MODERN ? { rawDispatch, v2RequestFraming: framing } : {}),
        onInputRequest: async () => ({ action: 'accept', content: QUESTION_ANSWER }),
      });
      return client;
    },
    close: () => session?.close().catch(() => undefined),
  });
}

/**
 * The raw request path ext-tasks leaves to its host at 2026-07-28 (tasks/get, tasks/update, tasks/cancel and
 * task-creating tools/call): one POST with the JSON-RPC envelope and the 2026-07-28 headers.
 */
async function rawDispatch(request, options) {
  const id = `tasks-${++rawId}`;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': request.method,
    ...(request.method === 'tools/call' ? { 'mcp-name': request.params?.name } : {}),
    ...options?.context?.headers,
  };
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, ...request }),
    signal: options?.signal,
  });
  const msg = messagesOf({ response: await res.text() }).find((m) => m.id === id);
  if (!msg) throw new Error(`${request.method}: HTTP ${res.status} with no JSON-RPC response`);
  return msg.error ? { kind: 'error', error: msg.error } : { kind: 'result', result: msg.result };
}
