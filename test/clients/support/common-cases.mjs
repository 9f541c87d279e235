// Case bodies more than one driver runs, each given the client's own way to call a tool: `call(name, args)`, which
// resolves to the CallToolResult the client hands back (or rejects as the client does).
import {
  RELEASE_TEXT,
  answerTo,
  askedOnCallStream,
  cancelSent,
  expect,
  expectBadArgumentResult,
  expectStopped,
  expectUnknownToolError,
  known,
  messagesOf,
  readWire,
  requestsOf,
  textOf,
} from './cases.mjs';

/** The cases of a 2025-11-25 or 2026-07-28 task, for a client that has no tasks. */
export const TASK_CASES = ['question (task)', 'task to its end', 'cancel (tasks/cancel)'];

/** One KNOWN line with `reason` for each case in `names`. */
export async function knownCases(run, names, reason) {
  for (const name of names)
    await run(name, async () => {
      throw known(reason);
    });
}

/** `call` may resolve to the text alone, for a client that hands back only that (LangChain's tools). */
export const plainCall = (run, call) =>
  run('plain call', async () => {
    const out = await call('countdown', { seconds: 1 });
    const text = typeof out === 'string' ? out : textOf(out);
    expect(text === 'Counted down 1 s.', `got ${JSON.stringify(text)}`);
    return text;
  });

/** The client rejects the call with -32602, the error the server answered. */
export const unknownTool = (run, url, call) =>
  run('unknown tool', async () => {
    const err = await call('no_such_tool', {}).then(
      (r) => new Error(`resolved ${JSON.stringify(r).slice(0, 200)}`),
      (e) => e,
    );
    expect(err?.code === -32602, `client saw ${err?.code}: ${err?.message}`);
    return expectUnknownToolError(url, 'no_such_tool');
  });

/** The client hands back the server's isError result for arguments the tool's DTO refuses. */
export const badArgument = (run, url, call) =>
  run('bad argument', async () => {
    const result = await call('countdown', { seconds: 'ten' }).catch((e) => e);
    expect(result?.isError === true, `client got ${result?.code ?? ''} ${result?.message ?? JSON.stringify(result)}`);
    return expectBadArgumentResult(url, 'countdown');
  });

/**
 * `result` answers publish_release with the client's answer. Up to 2025-11-25 the question must have come as an
 * elicitation/create on the call's own stream; at 2026-07-28 it comes in an input_required result, answered in a
 * retry.
 */
export async function expectAnswered(url, version, result) {
  expect(!result?.isError && textOf(result) === RELEASE_TEXT, `got ${JSON.stringify(result ?? null).slice(0, 300)}`);
  if (version >= '2026-07-28') {
    const calls = requestsOf(await readWire(url)).filter(
      (r) => r?.method === 'tools/call' && r.params?.name === 'publish_release',
    );
    const first = calls[0] && messagesOf(calls[0].e).find((m) => m.id === calls[0].id && !m.method);
    expect(
      calls.length >= 2 && first?.result?.resultType === 'input_required',
      `${calls.length} tools/call on the wire, the first answered ${JSON.stringify(first ?? null).slice(0, 200)}`,
    );
    return `${textOf(result)} (input_required, answered in a retry)`;
  }
  const asked = await askedOnCallStream(url, 'publish_release');
  expect(asked === 'elicitation/create', `the call's stream carried ${asked ?? 'no question'}`);
  return `${asked} on the call's stream; ${textOf(result)}`;
}

/**
 * The client aborted the countdown `label`: the run stopped on the server, no answer came for the call, and (unless
 * `closeIsCancel`: 2026-07-28, where closing the request cancels it) a notifications/cancelled went out.
 */
export async function expectAborted(url, label, { closeIsCancel = false } = {}) {
  const stopped = await expectStopped(url, label);
  const notified = await cancelSent(url, 'countdown');
  expect(notified || closeIsCancel, 'no notifications/cancelled went over the wire');
  // The 2025 revisions: the receiver SHOULD NOT answer a cancelled request.
  const { answer } = await answerTo(url, 'countdown');
  expect(!answer, `the server still answered: ${JSON.stringify(answer ?? null).slice(0, 200)}`);
  return `${notified ? 'notifications/cancelled' : 'request closed (no notifications/cancelled)'}; server: ${stopped}`;
}
