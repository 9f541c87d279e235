// LangChain's MCP adapter (@langchain/mcp-adapters): MultiServerMCPClient turns the server's tools into LangChain
// tools that an agent invokes. Built on the v1 SDK's Client, it speaks that SDK's default revision, 2025-11-25.
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import {
  answerTo,
  caseRunner,
  expect,
  expectBadArgumentResult,
  expectVersion,
  known,
  labelFor,
  resetWire,
} from '../support/cases.mjs';
import { TASK_CASES, expectAborted, knownCases, plainCall } from '../support/common-cases.mjs';

const url = process.argv[2];
const VERSION = '2025-11-25';
const run = caseRunner('langchain', VERSION);
const NO_QUESTIONS =
  '@langchain/mcp-adapters 1.1.4 creates its Client with no capabilities (dist/connection.js, createClient): it ' +
  'declares no elicitation and registers no elicitation/create handler';
const NO_TASKS =
  '@langchain/mcp-adapters 1.1.4 calls tools with client.callTool only (dist/tools.js, _callTool): it never sends ' +
  'params.task nor any tasks/* request';
const progress = [];

await resetWire(url);
const mcp = new MultiServerMCPClient({
  mcpServers: { demo: { transport: 'http', url } },
  onProgress: (p) => progress.push(`${p.progress}/${p.total}`),
});
let tools;
await run('connect+list', async () => {
  tools = Object.fromEntries((await mcp.getTools()).map((t) => [t.name, t]));
  await expectVersion(url, VERSION);
  expect(tools.publish_release && tools.countdown, `tools: ${Object.keys(tools).join(',')}`);
  return `${Object.keys(tools).length} tools`;
});
if (tools) {
  const text = (out) => (typeof out === 'string' ? out : JSON.stringify(out));
  await plainCall(run, async (name, args) => text(await tools[name].invoke(args)));
  await run('progress', async () => {
    progress.length = 0;
    const out = text(await tools.countdown.invoke({ seconds: 3 }));
    expect(out === 'Counted down 3 s.', `got ${out}`);
    expect(progress.length >= 2, `progress seen: ${progress.join(' ') || 'none'}`);
    return `progress ${progress.join(' ')}`;
  });
  await knownCases(run, ['question (plain call)'], NO_QUESTIONS);
  await knownCases(run, TASK_CASES, NO_TASKS);
  await run('cancel (AbortSignal)', async () => {
    const label = labelFor('langchain', VERSION, 'cancel');
    const ac = new AbortController();
    const call = tools.countdown.invoke({ seconds: 30, label }, { signal: ac.signal }).then(
      () => 'resolved',
      () => 'rejected',
    );
    setTimeout(() => ac.abort('the user stopped it'), 1500);
    expect((await call) === 'rejected', 'the aborted call resolved');
    return expectAborted(url, label);
  });
  await knownCases(
    run,
    ['unknown tool'],
    '@langchain/mcp-adapters 1.1.4 exposes only the tools the server listed (getTools): there is no call by name',
  );
  await run('bad argument', async () => {
    const out = await tools.countdown.invoke({ seconds: 'ten' }).then(text, (e) => e);
    const local = /did not match expected schema/.test(out?.message ?? '');
    const last = (await answerTo(url, 'countdown')).request?.params?.arguments?.seconds;
    if (local && last !== 'ten')
      throw known(
        '@langchain/core 1.4.0 checks the arguments against the listed inputSchema itself (dist/tools/index.js, ' +
          'StructuredTool.call: "Received tool input did not match expected schema") and sends no tools/call',
      );
    expect(typeof out === 'string', `the tool threw: ${out?.message}`);
    return expectBadArgumentResult(url, 'countdown');
  });
}
await mcp.close();
