// What every driver shares: one line per case (PASS, FAIL, or KNOWN for a fault of the client itself, with the
// reason), and the checks that read the wire the proxy recorded.
import { setTimeout as sleep } from 'node:timers/promises';

/** Generous: CI is a loaded 2-core box. */
export const CASE_TIMEOUT_MS = 60_000;
export const QUESTION_ANSWER = { channel: 'beta', notify: true };
export const RELEASE_TEXT = 'Published 1.2.0 to beta; subscribers notified.';
export const VERSIONS_2025 = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

/** A client cannot do this: the case is listed with the reason and counted neither as passed nor as failed. */
export class Known extends Error {}
export const known = (reason) => new Known(reason);

export function expect(ok, message) {
  if (!ok) throw new Error(message);
}

/** Runs `fn` as one case and prints its line; `fn` returns the detail of a pass. */
export function caseRunner(client, version) {
  return async (name, fn) => {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no outcome after ${CASE_TIMEOUT_MS / 1000} s`)), CASE_TIMEOUT_MS);
    });
    let line;
    try {
      line = `PASS ${client} ${version} ${name} — ${oneLine(await Promise.race([fn(), timeout]))}`;
    } catch (err) {
      const kind = err instanceof Known ? 'KNOWN' : 'FAIL';
      const why = err?.cause?.message ?? (err?.cause ? String(err.cause) : '');
      const cause = why && !String(err?.message).includes(why) ? ` (${why})` : '';
      line = `${kind} ${client} ${version} ${name} — ${oneLine((err?.message ?? String(err)) + cause)}`;
    } finally {
      clearTimeout(timer);
    }
    console.log(line);
  };
}

const oneLine = (s) => String(s).replace(/\s+/g, ' ').slice(0, 400);

// ---- The wire (see wire-proxy.mjs) --------------------------------------------------------------------------------
const wireUrl = (url) => new URL('/__wire', url).href;
export const resetWire = async (url) => void (await fetch(wireUrl(url), { method: 'DELETE' }));
export const readWire = async (url) => (await fetch(wireUrl(url))).json();

/** The JSON-RPC messages of a recorded response (a JSON body or an SSE stream). */
export function messagesOf(entry) {
  const text = entry.response ?? '';
  if (text.trimStart().startsWith('{') || text.trimStart().startsWith('[')) {
    const parsed = safeJson(text);
    return Array.isArray(parsed) ? parsed : parsed ? [parsed] : [];
  }
  return text
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n'),
    )
    .filter(Boolean)
    .map(safeJson)
    .filter(Boolean);
}

const safeJson = (t) => {
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
};

/** The requests sent (one entry per JSON-RPC message, batches split), each with its HTTP exchange. */
export function requestsOf(exchanges) {
  return exchanges.flatMap((e) => (Array.isArray(e.request) ? e.request : [e.request]).map((r) => ({ ...r, e })));
}

/** The protocol version the wire shows: the (last) initialize result's, else the 2026-07-28 header. */
export function spokenVersion(exchanges) {
  // A bridge may probe the server with an initialize of its own before it forwards its client's.
  const init = requestsOf(exchanges).findLast((r) => r?.method === 'initialize');
  if (init) return messagesOf(init.e).find((m) => m.id === init.id)?.result?.protocolVersion;
  return exchanges.find((e) => e.version === '2026-07-28') ? '2026-07-28' : undefined;
}

/** Fails unless the client connected at `version` (checked on the wire). */
export async function expectVersion(url, version) {
  const spoken = spokenVersion(await readWire(url));
  expect(spoken === version, `the wire shows ${spoken ?? 'no protocol version'}, not ${version}`);
}

/** The answer the server sent to the tools/call named `tool` (the last one), as recorded. */
export async function answerTo(url, tool) {
  const call = requestsOf(await readWire(url))
    .filter((r) => r?.method === 'tools/call' && r.params?.name === tool)
    .at(-1);
  if (!call) return { sent: false };
  return { sent: true, request: call, answer: messagesOf(call.e).find((m) => m.id === call.id && !m.method) };
}

/** The method of the question the server asked on the last tools/call of `tool`'s own stream, if any. */
export async function askedOnCallStream(url, tool) {
  const { sent, request } = await answerTo(url, tool);
  return sent ? messagesOf(request.e).find((m) => m.method && m.id !== undefined)?.method : undefined;
}

/** Fails unless the server answered the last tools/call of `tool` with a JSON-RPC error -32602. */
export async function expectUnknownToolError(url, tool) {
  const { sent, answer } = await answerTo(url, tool);
  expect(sent, `no tools/call for ${tool} went over the wire`);
  expect(answer?.error?.code === -32602, `server answered ${JSON.stringify(answer ?? null).slice(0, 200)}`);
  return `-32602 ${answer.error.message}`;
}

/** Fails unless the server answered the last tools/call of `tool` with a readable isError result. */
export async function expectBadArgumentResult(url, tool) {
  const { sent, answer } = await answerTo(url, tool);
  expect(sent, `no tools/call for ${tool} went over the wire`);
  const text = (answer?.result?.content ?? []).map((c) => c.text ?? '').join(' ');
  expect(
    answer?.result?.isError === true && /seconds/.test(text),
    `server answered ${JSON.stringify(answer ?? null).slice(0, 240)}, not a CallToolResult with isError naming seconds`,
  );
  return text;
}

/** Whether a notifications/cancelled for the last tools/call of `tool` went over the wire. */
export async function cancelSent(url, tool) {
  const { request } = await answerTo(url, tool);
  return requestsOf(await readWire(url)).some(
    (r) => r?.method === 'notifications/cancelled' && request && r.params?.requestId === request.id,
  );
}

let rawId = 0;
/**
 * A 2026-07-28 tools/call sent by this harness itself, straight to the server, declaring `capabilities`: its
 * JSON-RPC answer.
 */
export async function rawPost(url, name, args = {}, capabilities = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: `harness-${++rawId}`,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  });
  return messagesOf({ response: await res.text() })[0];
}

/** The text of a harness call (to read `countdown_log`). */
export const rawCall = async (url, name, args = {}) => textOf((await rawPost(url, name, args))?.result);

/** Waits until the demo's countdown_log shows the run `label` stopped by its signal; returns that line. */
export async function expectStopped(url, label, ms = 15_000) {
  const deadline = Date.now() + ms;
  let line;
  for (;;) {
    const log = await rawCall(url, 'countdown_log');
    line = log.split('\n').find((l) => l.startsWith(`${label} `));
    if (line?.includes('stopped by its signal')) return line;
    if (Date.now() > deadline) throw new Error(`countdown ${label} did not stop: ${line ?? 'not in countdown_log'}`);
    await sleep(250);
  }
}

/** A label no other case uses. */
export const labelFor = (client, version, what) =>
  `${client}-${version}-${what}-${Math.random().toString(36).slice(2, 7)}`;

/** The text blocks of a CallToolResult. */
export const textOf = (result) => (result?.content ?? []).map((c) => c.text ?? '').join('\n');
