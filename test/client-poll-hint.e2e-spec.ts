import { describe, expect, it } from '@jest/globals';
import { connect } from '@mcp-tasks/client';
import { startScriptedUpstream } from './fixtures/scripted-upstream.js';

describe("the client holds a server's poll hint within a timer's range", () => {
  // A hint past 2^31-1 ms made a timer that fires at once: `awaitTask({ answer: false })` looped on tasks/get
  // (187 reads in 1.5 s). ext-tasks, which drives the answering wait, holds its own timer within range.
  it.each([2 ** 31, 2 ** 32])(
    'awaitTask (observing or answering) waits, not loops, on a hint of %d ms',
    async (hint) => {
      const upstream = await startScriptedUpstream(hint);
      const client = await connect(upstream.url, { tasks: true });
      try {
        for (const answer of [false, true]) {
          const before = upstream.requests.length;
          const wait = client.awaitTask({ taskId: 'scripted-1' }, { answer, signal: AbortSignal.timeout(1_500) });
          await expect(wait).rejects.toThrow();
          const reads = upstream.requests.slice(before).filter((r) => r.method === 'tasks/get');
          expect({ answer, reads: reads.length }).toEqual({ answer, reads: 1 });
        }
      } finally {
        await client.close();
        await upstream.close();
      }
    },
  );
});
