import {
  Client,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { rethrowAuth } from './auth-failure.lookup.js';
import { authorizedFetch } from './authorized.fetch.js';
import { authorizedPoster } from './authorized.poster.js';
import type { ConnectOptions, LegacyMode } from './connect-options.interface.js';
import { createHttpRawDispatch } from './http-raw.dispatch.js';
import { toolSchemas } from './param-headers.js';
import { KeepAlivePoster } from './keep-alive.poster.js';
import { inputCapabilities, registerInputHandlers, taskInputHandler } from './input-handlers.adapter.js';
import { McpTasksClient, type TaskMachinery } from './mcp-tasks.client.js';
import { PollCadence } from './poll-cadence.policy.js';
import { PROTOCOL_VERSION, TASKS_EXTENSION } from './protocol.constants.js';
import { realmFetch } from './realm-json.fetch.js';
import { TaskNotificationTap } from './task-notification.tap.js';
import { TokenSource } from './token.source.js';

const DEFAULT_CLIENT_INFO = { name: 'mcp-tasks-client', version: '0.1.0' };

/** The SDK's negotiation mode for each `legacy` setting. */
const NEGOTIATION: Record<LegacyMode, VersionNegotiationMode> = {
  never: { pin: PROTOCOL_VERSION },
  fallback: 'auto',
  only: 'legacy',
};

/**
 * Connects to an MCP server's Streamable HTTP endpoint (e.g. `http://127.0.0.1:3000/mcp`) at
 * protocol revision 2026-07-28 — pinned unless `legacy` allows a 2025-era server — and returns a
 * client whose tool calls and task follow-ups run through ext-tasks.
 * @publicApi
 */
export async function connect(url: string | URL, options: ConnectOptions = {}): Promise<McpTasksClient> {
  const endpoint = new URL(url);
  const { tasks = false, handlers = {}, token, clientInfo = DEFAULT_CLIENT_INFO, legacy = 'never' } = options;
  const { onToolsChanged } = options;
  const mode = NEGOTIATION[legacy];
  if (!mode) throw new TypeError(`connect: legacy must be 'never', 'fallback' or 'only', not ${String(legacy)}`);
  const capabilities: ClientCapabilities = {
    ...inputCapabilities(handlers),
    ...(tasks && legacy !== 'only' ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
  };
  // The SDK follows list changes where the server advertises them (a notification, or a listen stream).
  const listChanged = onToolsChanged
    ? { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => onToolsChanged() } }
    : undefined;
  // Every request goes through it: the token (a provider asked each time), and 401/403 as errors with the reason.
  const tokens = new TokenSource(token);
  const send = authorizedFetch(tokens, realmFetch);
  const client = new Client(clientInfo, { capabilities, versionNegotiation: { mode }, listChanged });
  registerInputHandlers(client, handlers);
  await client.connect(new StreamableHTTPClientTransport(endpoint, { fetch: send })).catch(rethrowAuth);

  try {
    const version = client.getNegotiatedProtocolVersion() ?? 'unknown';
    if (client.getProtocolEra() === 'legacy') return new McpTasksClient(client, version, undefined, false);
    // 'auto' could settle on a later modern revision than the one whose task wire this client speaks.
    if (version !== PROTOCOL_VERSION)
      throw new Error(`The server negotiated ${version}; this client speaks ${PROTOCOL_VERSION}`);
    const cadence = new PollCadence();
    const session = createTaskSessionFromClient(client, {
      // Scopes ext-tasks' task references; one client talks to one endpoint.
      endpointId: endpoint.href,
      rawDispatch: createHttpRawDispatch(endpoint, send, cadence, toolSchemas(client)),
      v2RequestFraming: {
        protocolVersion: PROTOCOL_VERSION,
        clientInfo: { ...clientInfo },
        clientCapabilities: capabilities as Record<string, JsonValue>,
      },
      onInputRequest: taskInputHandler(handlers),
    });
    const tap = new TaskNotificationTap(cadence);
    tap.install(client);
    const machinery: TaskMachinery = { session, cadence, tap };
    const poster = authorizedPoster(tokens, new KeepAlivePoster(endpoint));
    const framing = { endpoint, fetch: send, poster, clientInfo: { ...clientInfo }, capabilities: { ...capabilities } };
    return new McpTasksClient(client, version, machinery, tasks, framing);
  } catch (error) {
    await client.close();
    throw error;
  }
}
