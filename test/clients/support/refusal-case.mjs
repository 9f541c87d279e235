// A tool that asks for input, called by a client whose revision has no elicitation (2024-11-05, 2025-03-26): the
// server refuses the call (-32600) with the way out that revision has — a later revision — and never points to
// params.task, which those revisions do not have either (libs/mcp-tasks/src/input/input-availability.ts).
import { answerTo, expect } from './cases.mjs';

export const refusedQuestion = (run, url, version, call) =>
  run('question refused (plain call)', async () => {
    const err = await call('publish_release', { version: '1.2.0' }).then(
      (r) => new Error(`resolved ${JSON.stringify(r).slice(0, 200)}`),
      (e) => e,
    );
    expect(err?.code === -32600, `client saw ${err?.code}: ${err?.message}`);
    const { sent, answer } = await answerTo(url, 'publish_release');
    expect(sent, 'no tools/call for publish_release went over the wire');
    const text = answer?.error?.message ?? '';
    expect(answer?.error?.code === -32600, `server answered ${JSON.stringify(answer ?? null).slice(0, 240)}`);
    expect(
      text.includes(`elicitation/create, which protocol ${version} does not have`) &&
        text.includes('connect with protocol 2025-06-18 or later'),
      `the refusal does not name ${version} and the way out (2025-06-18 or later): ${text}`,
    );
    expect(!/params\.task|task/i.test(text), `the refusal points to a task, which ${version} has not: ${text}`);
    return `-32600 ${text}`;
  });
