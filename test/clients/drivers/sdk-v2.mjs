// The official v2 client (@modelcontextprotocol/client, the family of the @modelcontextprotocol/server this repo
// uses) at 2026-07-28, with the Tasks extension's client session (@modelcontextprotocol/ext-tasks) for tasks.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import {
  QUESTION_ANSWER,
  RELEASE_TEXT,
  answerTo,
  cancelSent,
  caseRunner,
  expect,
  expectBadArgumentResult,
  expectStopped,
  expectUnknownToolError,
  expectVersion,
  labelFor,
  messagesOf,
  resetWire,
  textOf,
} from '../support/cases.mjs';

const url = process.argv[2];
const VERSION = '2026-07-28';
const info = { name: 'clients-suite', version: '1.0.0' };
const capabilities = { elicitation: { form: {} } };
const run = caseRunner('sdk-v2', VERSION);
let rawId = 0;

await resetWire(url);
let client;
let session;
await run('connect+list', async () => {
  client = new Client(info, { capabilities, versionNegotiation: { mode: 'auto' } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: QUESTION_ANSWER }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await expectVersion(url, VERSION);
  const { tools } = await client.listTools();
  expect(
    tools.some((t) => t.name === 'publish_release'),
    `tools: ${tools.map((t) => t.name).join(',')}`,
  );
  session = createTaskSessionFromClient(client, {
    endpointId: 'clients-suite',
    rawDispatch,
    v2RequestFraming: { protocolVersion: VERSION, clientInfo: info, clientCapabilities: capabilities },
    onInputRequest: async () => ({ action: 'accept', content: QUESTION_ANSWER }),
  });
  return `${tools.length} tools`;
});
if (client) {
  await run('plain call', async () => {
    const text = textOf(await client.callTool({ name: 'countdown', arguments: { seconds: 1 } }));
    expect(text === 'Counted down 1 s.', `got ${JSON.stringify(text)}`);
    return text;
  });
  await run('progress', async () => {
    const seen = [];
    const result = await client.callTool(
      { name: 'countdown', arguments: { seconds: 3 } },
      { onprogress: (p) => seen.push(`${p.progress}/${p.total}`) },
    );
    expect(textOf(result) === 'Counted down 3 s.', `result ${JSON.stringify(textOf(result))}`);
    expect(seen.length >= 2, `progress seen: ${seen.join(' ') || 'none'}`);
    return `progress ${seen.join(' ')}`;
  });
  await run('question (plain call)', async () => {
    const result = await client.callTool({ name: 'publish_release', arguments: { version: '1.2.0' } });
    expect(textOf(result) === RELEASE_TEXT, `got ${JSON.stringify(result ?? null).slice(0, 300)}`);
    return `${textOf(result)} (input_required, answered in a retry)`;
  });
  await run('question (task)', async () => {
    const ex = await session.callTool('publish_release', { version: '1.2.0' });
    expect(ex.kind === 'task', `not a task: ${ex.kind}`);
    const { outcome } = await ex.settle();
    expect(outcome.status === 'completed', `task ${outcome.status}`);
    expect(textOf(outcome.result) === RELEASE_TEXT, `got ${JSON.stringify(outcome.result ?? null).slice(0, 300)}`);
    return `task completed: ${textOf(outcome.result)}`;
  });
  await run('task to its end', async () => {
    const ex = await session.callTool('countdown', { seconds: 2 });
    expect(ex.kind === 'task', `not a task: ${ex.kind}`);
    const steps = [];
    const { outcome } = await ex.settle({
      onEvent: (ev) => {
        const step = ev.type === 'task' ? ev.task.status : ev.outcome.status;
        if (steps.at(-1) !== step) steps.push(step);
      },
    });
    expect(outcome.status === 'completed', `task ${outcome.status}`);
    expect(textOf(outcome.result) === 'Counted down 2 s.', `got ${JSON.stringify(outcome.result ?? null)}`);
    return steps.join(' → ');
  });
  await run('cancel (tasks/cancel)', async () => {
    const label = labelFor('sdk-v2', VERSION, 'task-cancel');
    const ex = await session.callTool('countdown', { seconds: 60, label });
    expect(ex.kind === 'task', `not a task: ${ex.kind}`);
    await ex.cancel();
    const outcome = await ex.result();
    expect(outcome.status === 'cancelled', `task ${outcome.status}`);
    return `task cancelled; server: ${await expectStopped(url, label)}`;
  });
  await run('cancel (AbortSignal)', async () => {
    const label = labelFor('sdk-v2', VERSION, 'cancel');
    const ac = new AbortController();
    const call = client
      .callTool(
        { name: 'countdown', arguments: { seconds: 30, label } },
        { signal: ac.signal, onprogress: () => ac.abort('the user stopped it') },
      )
      .then(
        () => 'resolved',
        () => 'rejected',
      );
    expect((await call) === 'rejected', 'the aborted call resolved');
    const stopped = await expectStopped(url, label);
    const how = (await cancelSent(url, 'countdown'))
      ? 'notifications/cancelled'
      : 'request closed (no notifications/cancelled)';
    const { answer } = await answerTo(url, 'countdown');
    expect(!answer, `the server still answered: ${JSON.stringify(answer ?? null).slice(0, 200)}`);
    return `${how}; server: ${stopped}`;
  });
  await run('unknown tool', async () => {
    const err = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      (r) => new Error(`resolved ${JSON.stringify(r).slice(0, 200)}`),
      (e) => e,
    );
    expect(err?.code === -32602, `client saw ${err?.code}: ${err?.message}`);
    return expectUnknownToolError(url, 'no_such_tool');
  });
  await run('bad argument', async () => {
    const result = await client.callTool({ name: 'countdown', arguments: { seconds: 'ten' } }).catch((e) => e);
    expect(result?.isError === true, `client got ${result?.code ?? ''} ${result?.message ?? JSON.stringify(result)}`);
    return expectBadArgumentResult(url, 'countdown');
  });
  await session?.close().catch(() => undefined);
  await client.close().catch(() => undefined);
}

/**
 * The raw request path ext-tasks leaves to its host (tasks/get, tasks/update, tasks/cancel and task-creating
 * tools/call): one POST with the JSON-RPC envelope and the 2026-07-28 headers.
 */
async function rawDispatch(request, options) {
  const id = `tasks-${++rawId}`;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
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
