import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createSseResumptionApp, gate } from './fixtures/sse-resumption-app.js';
import { exchange, initialize, legacyHeaders, request } from './support/legacy-wire.js';
import { VERSION } from './support/mcp-request.js';

const urlOf = (app: INestApplication) =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);

interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}

/** The raw SSE events of a body (comments skipped): what a client's parser reads, ids and `retry` included. */
function eventsOf(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.split('\n').some((l) => /^(id|retry|data):/.test(l)))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .filter((l) => l.startsWith(`${name}:`))
          .map((l) => l.slice(name.length + 1).trimStart());
      return { id: field('id')[0], retry: field('retry')[0], data: field('data').join('\n') };
    });
}

const messageOf = (e: SseEvent) => JSON.parse(e.data) as Record<string, any>;
const call = (name: string, id: string) =>
  request('tools/call', { name, arguments: {}, _meta: { progressToken: id } }, id);

/** POSTs `body` and reads the whole answer as raw text. */
async function postRaw(url: URL, body: unknown, headers: Record<string, string>) {
  const x = await exchange(url, { body, headers });
  const text = (await x.body()) as unknown;
  return { status: x.status, type: String(x.headers['content-type']), text: typeof text === 'string' ? text : '', x };
}

/** A resuming GET: status, content type, raw text once it ended. */
async function resume(url: URL, session: string, lastEventId: string) {
  const x = await exchange(url, {
    method: 'GET',
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
      'last-event-id': lastEventId,
    },
  });
  return x;
}

describe('SEP-1699: a 2025-11-25 call lets go of its connection and is resumed with Last-Event-ID', () => {
  let app: INestApplication;
  let url: URL;
  let session: string;

  beforeAll(async () => {
    app = await createSseResumptionApp();
    url = urlOf(app);
    ({ session } = await initialize(url));
  });
  afterAll(() => app.close());
  beforeEach(() => gate.reset());

  it('primes the stream (id, retry, empty data), ids every event, and a resume delivers the rest once', async () => {
    const post = await postRaw(url, call('poll_gated', 'g1'), legacyHeaders(session));
    // The POST ended while the call waits at the gate: priming event, then the progress sent before closing.
    expect(post.status).toBe(200);
    expect(post.type).toMatch(/text\/event-stream/);
    const first = eventsOf(post.text);
    expect(first).toHaveLength(2);
    const [priming, progress1] = first;
    expect(priming).toEqual({ id: expect.stringMatching(/:0$/), retry: '50', data: '' });
    expect(messageOf(progress1)).toMatchObject({ method: 'notifications/progress', params: { progress: 1 } });
    const stream = priming.id!.slice(0, -':0'.length);
    expect(progress1.id).toBe(`${stream}:1`);

    const resumed = await resume(url, session, progress1.id!);
    expect(resumed.status).toBe(200);
    expect(resumed.headers['content-type']).toMatch(/text\/event-stream/);
    gate.release();
    const rest = eventsOf(String(await resumed.body()));
    // Only what came after progress 1: progress 2, then the answer; the stream ends with it.
    expect(rest.map((e) => e.id)).toEqual([`${stream}:2`, `${stream}:3`]);
    expect(messageOf(rest[0])).toMatchObject({ method: 'notifications/progress', params: { progress: 2 } });
    expect(messageOf(rest[1])).toEqual({
      jsonrpc: '2.0',
      id: 'g1',
      result: { content: [{ type: 'text', text: 'gated done' }] },
    });

    // Resuming after the answer's event: nothing left, the stream ends at once.
    const after = await resume(url, session, `${stream}:3`);
    expect(after.status).toBe(200);
    expect(eventsOf(String(await after.body()))).toEqual([]);
  });

  it('keeps what the call sent while no connection was attached, for a client that comes back late', async () => {
    const post = await postRaw(url, call('poll_free', 'f1'), legacyHeaders(session));
    const [priming, progress1] = eventsOf(post.text);
    expect(messageOf(progress1).params.progress).toBe(1);
    const stream = priming.id!.slice(0, -':0'.length);
    // The call most likely answered meanwhile (nothing waits in it): the resume replays the rest and ends. Had it
    // not, the resume gets the same events live.
    await new Promise((r) => setTimeout(r, 100));
    const rest = eventsOf(String(await (await resume(url, session, progress1.id!)).body()));
    expect(rest.map((e) => e.id)).toEqual([`${stream}:2`, `${stream}:3`]);
    expect(messageOf(rest[1]).result.content).toEqual([{ type: 'text', text: 'closed: true' }]);
  });

  it('answers 400 with a JSON-RPC error for a Last-Event-ID it cannot resume', async () => {
    const post = await postRaw(url, call('poll_free', 'f2'), legacyHeaders(session));
    const [priming] = eventsOf(post.text);
    const other = (await initialize(url)).session;
    const cases: Array<[string, string, RegExp]> = [
      ['garbage', session, /names no stream this session can resume/],
      // Another session's stream reads as unknown.
      [priming.id!, other, /names no stream this session can resume/],
      // An id this instance issued for a stream it never had.
      [`${priming.id!.split(':')[0]}:${randomUUID()}:0`, session, /names no stream this session can resume/],
      // An id of another instance (the in-memory log is per instance).
      [`${randomUUID()}:${randomUUID()}:0`, session, /another server instance/],
      // Past the last event sent.
      [priming.id!.replace(/:0$/, ':99'), session, /names no stream this session can resume/],
    ];
    // Without a session there is nothing to resume in: the SDK's stateless GET answer, as before.
    const sessionless = await exchange(url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'last-event-id': priming.id! },
    });
    expect(sessionless.status).toBe(405);
    await sessionless.body();
    for (const [id, s, message] of cases) {
      const res = await resume(url, s, id);
      expect(res.status).toBe(400);
      const body = (await res.body()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32000);
      expect(body.error.message).toMatch(message);
    }
  });

  it('leaves a 2025-11-25 call that streams nothing a plain JSON answer', async () => {
    const post = await postRaw(
      url,
      request('tools/call', { name: 'plain', arguments: {} }, 'p1'),
      legacyHeaders(session),
    );
    expect(post.type).toMatch(/application\/json/);
    expect(await post.x.body()).toMatchObject({ id: 'p1', result: { content: [{ type: 'text', text: 'plain' }] } });
  });

  it('leaves 2025-06-18 as it was: no ids, no retry, the whole answer on the POST', async () => {
    const old = (await initialize(url, {}, '2025-06-18')).session;
    const headers = legacyHeaders(old, { 'mcp-protocol-version': '2025-06-18' });
    const post = await postRaw(url, call('poll_free', 'o1'), headers);
    const events = eventsOf(post.text);
    expect(events.map((e) => [e.id, e.retry])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ]);
    expect(messageOf(events[2]).result.content).toEqual([{ type: 'text', text: 'closed: false' }]);
  });

  it('leaves 2026-07-28 as it was: no ids, no retry, the whole answer on the POST', async () => {
    const body = request(
      'tools/call',
      {
        name: 'poll_free',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientCapabilities': {},
          progressToken: 'm1',
        },
      },
      'm1',
    );
    const post = await postRaw(url, body, {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': 'poll_free',
    });
    expect(post.type).toMatch(/text\/event-stream/);
    const events = eventsOf(post.text);
    expect(events.map((e) => e.id ?? e.retry ?? 'none')).toEqual(['none', 'none', 'none']);
    expect(messageOf(events[2]).result.content).toEqual([{ type: 'text', text: 'closed: false' }]);
  });
});
