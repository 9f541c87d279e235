// The AI SDK's MCP client (@ai-sdk/mcp, `createMCPClient`; needs Node 22): its tools() are what generateText runs.
// 2026-07-28 by protocol discovery (its default), 2025-11-25 by initialize (protocolVersionDiscovery: false).
import { ElicitationRequestSchema, createMCPClient } from '@ai-sdk/mcp';
import {
  QUESTION_ANSWER,
  answerTo,
  caseRunner,
  expect,
  expectStopped,
  expectVersion,
  known,
  labelFor,
  resetWire,
} from '../support/cases.mjs';
import {
  TASK_CASES,
  badArgument,
  expectAnswered,
  knownCases,
  plainCall,
  unknownTool,
} from '../support/common-cases.mjs';

const url = process.argv[2];
const NO_PROGRESS =
  '@ai-sdk/mcp 2.0.99 sends no progressToken and handles no notifications/progress (dist/index.js has neither)';
const NO_TASKS = '@ai-sdk/mcp 2.0.99 has no tasks API: it never sends params.task nor any tasks/* request';
const NO_CANCEL =
  '@ai-sdk/mcp 2.0.99 sends no notifications/cancelled (dist/index.js has none): an abortSignal only closes its ' +
  'fetch, and the 2025 revisions say a disconnection is not a cancel';

for (const version of ['2025-11-25', '2026-07-28']) {
  const run = caseRunner('ai-sdk', version);
  await resetWire(url);
  let client;
  let tools;
  await run('connect+list', async () => {
    client = await createMCPClient({
      transport: { type: 'http', url },
      capabilities: { elicitation: {} },
      protocolVersionDiscovery: version === '2026-07-28',
    });
    client.onElicitationRequest(ElicitationRequestSchema, async () => ({ action: 'accept', content: QUESTION_ANSWER }));
    await expectVersion(url, version);
    tools = await client.tools();
    expect(tools.publish_release && tools.countdown, `tools: ${Object.keys(tools).join(',')}`);
    return `${Object.keys(tools).length} tools`;
  });
  if (!tools) continue;
  const exec = (name, args, abortSignal) =>
    tools[name].execute(args, { toolCallId: `call-${Math.random()}`, messages: [], abortSignal });
  await plainCall(run, exec);
  await knownCases(run, ['progress'], NO_PROGRESS);
  await run('question (plain call)', async () =>
    expectAnswered(url, version, await exec('publish_release', { version: '1.2.0' })),
  );
  await knownCases(run, TASK_CASES, NO_TASKS);
  await run('cancel (AbortSignal)', async () => {
    const label = labelFor('ai-sdk', version, 'cancel');
    const ac = new AbortController();
    const call = exec('countdown', { seconds: 30, label }, ac.signal).then(
      () => 'resolved',
      () => 'rejected',
    );
    setTimeout(() => ac.abort('the user stopped it'), 1500);
    expect((await call) === 'rejected', 'the aborted call resolved');
    // Closing the request is this client's only cancel: a 2025 server need not take it as one.
    const stopped = await expectStopped(url, label, 5000).catch(() => undefined);
    if (!stopped && version !== '2026-07-28') throw known(NO_CANCEL);
    expect(stopped, `countdown ${label} did not stop when its request closed`);
    const { answer } = await answerTo(url, 'countdown');
    expect(!answer, `the server still answered: ${JSON.stringify(answer ?? null).slice(0, 200)}`);
    return `request closed; server: ${stopped}`;
  });
  await unknownTool(run, url, (name, args) => client.callTool({ name, arguments: args }));
  await badArgument(run, url, exec);
  await client.close();
}
