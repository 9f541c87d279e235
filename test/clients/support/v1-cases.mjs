// The cases for a client built on the official v1 SDK's `Client` (@modelcontextprotocol/sdk 1.x): the SDK itself
// over Streamable HTTP, and the stdio↔HTTP bridge driven by it over stdio. `connect(version)` returns a connected
// Client that spoke `version` (or throws).
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  QUESTION_ANSWER,
  RELEASE_TEXT,
  cancelSent,
  caseRunner,
  expect,
  expectBadArgumentResult,
  expectStopped,
  expectUnknownToolError,
  expectVersion,
  answerTo,
  askedOnCallStream,
  known,
  labelFor,
  resetWire,
  textOf,
} from './cases.mjs';

/** Elicitation exists from 2025-06-18 on; tasks from 2025-11-25. */
export const asks = (version) => version >= '2025-06-18';

export function answering(client) {
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: QUESTION_ANSWER }));
}

/**
 * `o.connect(version)`: a connected Client. `o.tasks`: whether this client does tasks at `version` (else the task
 * cases are not run). `o.gaps`: case name → the reason this client cannot do it (a KNOWN line).
 */
export async function v1Cases(name, version, url, o) {
  const run = caseRunner(name, version);
  const gap = (c) => {
    if (o.gaps?.[c]) throw known(o.gaps[c]);
  };
  await resetWire(url);
  let client;
  await run('connect+list', async () => {
    client = await o.connect(version);
    await expectVersion(url, version);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.includes('publish_release') && names.includes('countdown'), `tools: ${names.join(',')}`);
    return `${tools.length} tools`;
  });
  if (!client) return;
  try {
    await run('plain call', async () => {
      const text = textOf(await client.callTool({ name: 'countdown', arguments: { seconds: 1 } }));
      expect(text === 'Counted down 1 s.', `got ${JSON.stringify(text)}`);
      return text;
    });
    await run('progress', async () => {
      gap('progress');
      const seen = [];
      const result = await client.callTool({ name: 'countdown', arguments: { seconds: 3 } }, CallToolResultSchema, {
        onprogress: (p) => seen.push(`${p.progress}/${p.total}`),
      });
      expect(textOf(result) === 'Counted down 3 s.', `result ${JSON.stringify(textOf(result))}`);
      expect(seen.length >= 2, `progress seen: ${seen.join(' ') || 'none'}`);
      return `progress ${seen.join(' ')}`;
    });
    if (asks(version))
      await run('question (plain call)', async () => {
        gap('question (plain call)');
        const result = await client.callTool({ name: 'publish_release', arguments: { version: '1.2.0' } });
        expect(
          !result.isError && textOf(result) === RELEASE_TEXT,
          `got ${JSON.stringify(result ?? null).slice(0, 300)}`,
        );
        const asked = await askedOnCallStream(url, 'publish_release');
        expect(asked === 'elicitation/create', `the call's stream carried ${asked ?? 'no question'}`);
        return `${asked} on the call's stream; ${textOf(result)}`;
      });
    if (o.tasks) await taskCases(run, client, url, name, version);
    await run('cancel (AbortSignal)', async () => {
      gap('cancel (AbortSignal)');
      const label = labelFor(name, version, 'cancel');
      const ac = new AbortController();
      const call = client
        .callTool({ name: 'countdown', arguments: { seconds: 30, label } }, CallToolResultSchema, {
          signal: ac.signal,
          onprogress: () => ac.abort('the user stopped it'),
        })
        .then(
          () => 'resolved',
          () => 'rejected',
        );
      expect((await call) === 'rejected', 'the aborted call resolved');
      const stopped = await expectStopped(url, label);
      expect(await cancelSent(url, 'countdown'), 'no notifications/cancelled went over the wire');
      // The 2025 revisions: the receiver SHOULD NOT answer a cancelled request.
      const { answer } = await answerTo(url, 'countdown');
      expect(!answer, `the server still answered: ${JSON.stringify(answer ?? null).slice(0, 200)}`);
      return `notifications/cancelled; server: ${stopped}`;
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
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** 2025-11-25 tasks through `client.experimental.tasks`. */
async function taskCases(run, client, url, name, version) {
  const tasks = client.experimental.tasks;
  const follow = async (params) => {
    const seen = [];
    let result;
    for await (const m of tasks.callToolStream(params, CallToolResultSchema, { task: { ttl: 120_000 } })) {
      const step = m.type === 'taskStatus' ? m.task.status : m.type;
      if (seen.at(-1) !== step) seen.push(step);
      if (m.type === 'result') result = m.result;
      if (m.type === 'error') throw m.error;
    }
    return { result, seen };
  };
  await run('question (task)', async () => {
    const { result, seen } = await follow({ name: 'publish_release', arguments: { version: '1.2.0' } });
    expect(textOf(result) === RELEASE_TEXT, `got ${JSON.stringify(result ?? null).slice(0, 300)}`);
    expect(seen[0] === 'taskCreated', `no task was created: ${seen.join(' ')}`);
    return `${seen.join(' → ')}: ${textOf(result)}`;
  });
  await run('task to its end', async () => {
    const { result, seen } = await follow({ name: 'countdown', arguments: { seconds: 2 } });
    expect(textOf(result) === 'Counted down 2 s.', `got ${JSON.stringify(result ?? null).slice(0, 300)}`);
    expect(seen[0] === 'taskCreated', `no task was created: ${seen.join(' ')}`);
    return seen.join(' → ');
  });
  await run('cancel (tasks/cancel)', async () => {
    const label = labelFor(name, version, 'task-cancel');
    const stream = tasks.callToolStream(
      { name: 'countdown', arguments: { seconds: 60, label } },
      CallToolResultSchema,
      {
        task: { ttl: 120_000 },
      },
    );
    const first = await stream[Symbol.asyncIterator]().next();
    const taskId = first.value?.task?.taskId;
    expect(taskId, `no task: ${JSON.stringify(first.value ?? null).slice(0, 200)}`);
    await tasks.cancelTask(taskId);
    const stopped = await expectStopped(url, label);
    const status = (await tasks.getTask(taskId)).status;
    expect(status === 'cancelled', `task ${status}`);
    return `task ${status}; server: ${stopped}`;
  });
}
