import { describe, expect, it } from '@jest/globals';
import { answerQuestions } from './support/asked-questions.js';
import { forcedVersion } from './support/forced-version.js';
import { gatewaySuite } from './support/gateway-suite.js';

const T = 60_000;

/**
 * The official v1 client, as deployed, calling an upstream tool that asks in the request (MRTR upstream) through a
 * gateway, without a task: asked on its call's stream, its answers sent upstream round after round.
 */
describe('gateway: an upstream tool asks a 2025-era client during a plain call', () => {
  const suite = gatewaySuite();
  const v1 = (version: string, capabilities: Record<string, object>) =>
    suite.connect({ capabilities, fetch: forcedVersion(version) });

  for (const version of ['2025-06-18', '2025-11-25']) {
    it(
      `v1 client at ${version}: two rounds, each question on the call's stream, no task`,
      async () => {
        const c = await v1(version, { elicitation: {} });
        const asked = answerQuestions(c.client, (message): Record<string, string | boolean> =>
          message.includes('name') ? { name: 'Ada' } : { ok: true },
        );
        const result = await c.client.callTool(
          { name: 'upstream_test_input_required_result_multi_round', arguments: {} },
          undefined,
          { timeout: T },
        );
        expect(result.content).toEqual([{ type: 'text', text: 'step1=Ada; step2=true' }]);
        expect(asked).toEqual([{ message: 'Step 1: your name?' }, { message: 'Step 2: continue?' }]);
        expect(c.transport.protocolVersion).toBe(version);
      },
      T,
    );
  }

  it(
    'a question the client cannot be asked (sampling; it declared elicitation only): the refusal a local tool gives',
    async () => {
      const c = await v1('2025-11-25', { elicitation: {} });
      const err = await c.client
        .callTool({ name: 'upstream_test_input_required_result_sampling', arguments: {} }, undefined, { timeout: T })
        .catch((e: { code?: number; message?: string }) => e);
      expect(err).toMatchObject({ code: -32600 });
      // Not asked and failed by the client (that would be its own error): refused before anything was sent to it.
      expect((err as { message: string }).message).toContain('"sampling" (sampling/createMessage), which this client');
    },
    T,
  );
});
