import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import type { ConnectOptions } from './connect-options.interface.js';
import { createHttpRawDispatch } from './http-raw.dispatch.js';
import { inputCapabilities, registerInputHandlers, taskInputHandler } from './input-handlers.adapter.js';
import { McpTasksClient } from './mcp-tasks.client.js';
import { PollCadence } from './poll-cadence.policy.js';
import { PROTOCOL_VERSION, TASKS_EXTENSION } from './protocol.constants.js';
import { realmFetch } from './realm-json.fetch.js';
import { TaskNotificationTap } from './task-notification.tap.js';

const DEFAULT_CLIENT_INFO = { name: 'mcp-tasks-client', version: '0.1.0' };

/**
 * Connects to an MCP server's Streamable HTTP endpoint (e.g. `http://127.0.0.1:3000/mcp`) at
 * protocol revision 2026-07-28 — pinned: an older server fails here rather than later — and
 * returns a client whose tool calls and task follow-ups run through ext-tasks.
 */
export async function connect(url: string | URL, options: ConnectOptions = {}): Promise<McpTasksClient> {
  const endpoint = new URL(url);
  const { tasks = false, handlers = {}, token, clientInfo = DEFAULT_CLIENT_INFO } = options;
  const capabilities: ClientCapabilities = {
    ...inputCapabilities(handlers),
    ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
  };
  const client = new Client(clientInfo, { capabilities, versionNegotiation: { mode: { pin: PROTOCOL_VERSION } } });
  registerInputHandlers(client, handlers);
  const authProvider = token === undefined ? undefined : { token: async () => token };
  await client.connect(new StreamableHTTPClientTransport(endpoint, { fetch: realmFetch, authProvider }));

  try {
    const cadence = new PollCadence();
    const session = createTaskSessionFromClient(client, {
      // Scopes ext-tasks' task references; one client talks to one endpoint.
      endpointId: endpoint.href,
      rawDispatch: createHttpRawDispatch(endpoint, token, cadence),
      v2RequestFraming: {
        protocolVersion: PROTOCOL_VERSION,
        clientInfo: { ...clientInfo },
        clientCapabilities: capabilities as Record<string, JsonValue>,
      },
      onInputRequest: taskInputHandler(handlers),
    });
    const tap = new TaskNotificationTap(cadence);
    tap.install(client);
    return new McpTasksClient(client, session, cadence, tap, tasks);
  } catch (error) {
    await client.close();
    throw error;
  }
}
