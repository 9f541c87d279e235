import { randomUUID } from 'node:crypto';
import { readJsonRpcReply } from './json-rpc-body.reader.js';
import { taskFromWire } from './mcp-task.mapper.js';
import { McpRpcError } from './mcp-rpc.error.js';
import type { ListenTasksOptions, TaskListenStream, TaskNotificationListener } from './raw-request.interface.js';
import { sseMessages } from './sse-message.reader.js';
import { framedParams, standardHeaders, type WireFraming } from './wire-framing.js';

/**
 * `subscriptions/listen` for `taskIds` on a stream of its own (with its own token), handing each
 * `notifications/tasks` to `onTask`. Resolves once the server acknowledged; a refusal rejects with `McpRpcError`.
 */
export async function openTaskListen(
  framing: WireFraming,
  taskIds: string[],
  onTask: TaskNotificationListener,
  options: ListenTasksOptions,
): Promise<TaskListenStream> {
  const id = `listen-${randomUUID()}`;
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const params = { notifications: { taskIds } };
  const res = await framing
    .fetch(framing.endpoint, {
      method: 'POST',
      headers: standardHeaders('subscriptions/listen', params, options.token),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: framedParams(framing, params, undefined, undefined),
      }),
      signal: abort.signal,
    })
    .catch((error: unknown) => {
      options.signal?.removeEventListener('abort', onAbort);
      throw error;
    });
  const close = () => abort.abort();
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || !res.body) {
    options.signal?.removeEventListener('abort', onAbort);
    const reply = await readJsonRpcReply(res, id);
    if (reply?.error) throw new McpRpcError(reply.error.code, reply.error.message, reply.error.data);
    // A result at once: the server ended the subscription before it began.
    if (reply) return { acknowledged: [], closed: Promise.resolve(), close };
    throw new Error(`subscriptions/listen: HTTP ${res.status} without a JSON-RPC response`);
  }
  const messages = sseMessages(res.body);
  const acknowledged = await firstAcknowledgement(messages, close);
  const closed = (async () => {
    try {
      for await (const message of messages) {
        const p = message.params as Record<string, unknown> | undefined;
        if (message.method === 'notifications/tasks' && p && typeof p.taskId === 'string') onTask(taskFromWire(p));
        if (message.id === id) break;
      }
    } catch {
      // Closed here, or broken: either way the stream is over.
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      close();
    }
  })();
  return { acknowledged, closed, close };
}

/** The ids of the `notifications/subscriptions/acknowledged` that opens the stream. */
async function firstAcknowledgement(
  messages: AsyncGenerator<Record<string, unknown>>,
  close: () => void,
): Promise<string[]> {
  try {
    const first = await messages.next();
    const params = (first.done ? undefined : first.value.params) as Record<string, any> | undefined;
    if (first.done || first.value.method !== 'notifications/subscriptions/acknowledged') {
      throw new Error('subscriptions/listen: the stream did not open with an acknowledgement');
    }
    const ids: unknown = params?.notifications?.taskIds;
    return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
  } catch (error) {
    close();
    throw error;
  }
}
