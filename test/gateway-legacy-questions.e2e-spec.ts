import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { QuestionChannel } from '../libs/mcp-tasks/src/context/question.channel.js';
import { McpDispatcher } from '../libs/mcp-tasks/src/dispatcher/mcp.dispatcher.js';
import type { McpRequest } from '../libs/mcp-tasks/src/dispatcher/mcp-request.interface.js';
import { legacyCallVariant } from '../libs/mcp-tasks/src/legacy/legacy-call.variant.js';
import { RpcError } from '../libs/mcp-tasks/src/protocol/rpc.error.js';
import type { InputRequest } from '../libs/mcp-tasks/src/protocol/wire.interface.js';
import { startGatewayOverDemo, type GatewayOverDemo } from './support/gateway-over-demo.js';

/**
 * A 2025-era synchronous call of an upstream tool that asks in the request (MRTR upstream): the gateway asks each
 * question through the call's question channel (here a stand-in that answers at once, in place of the client's
 * stream) and calls the upstream again with the answers, round after round. Dispatched as the legacy wire does.
 */
describe('gateway: questions of an upstream tool in a 2025-era synchronous call', () => {
  let g: GatewayOverDemo;
  let n = 0;

  /** A channel answering each question with `answer(key)`, and what it was asked. */
  const channel = (answer: (key: string, request: InputRequest) => unknown) => {
    const asked: Array<{ key: string; request: InputRequest }> = [];
    const questions: QuestionChannel = {
      ask: async (key, request) => {
        asked.push({ key, request });
        return answer(key, request);
      },
    };
    return { asked, questions };
  };
  /** `tools/call` of a 2025-era session at `version` that declared elicitation. */
  const dispatch = (name: string, questions?: QuestionChannel, version = '2025-06-18') => {
    const tasksOn = version === '2025-11-25';
    const req: McpRequest = {
      id: `q${++n}`,
      method: 'tools/call',
      params: { name, arguments: {} },
      protocolVersion: version,
      clientCapabilities: { elicitation: {} },
      principal: { key: 'host', subject: 'host', scopes: [] },
      http: { req: { headers: {} }, res: {} } as McpRequest['http'],
      signal: new AbortController().signal,
      traceContext: undefined,
      variant: legacyCallVariant({ tasks: true, tasksOn, serverTtl: null, pollInterval: 100 }),
      questions,
    };
    return g.gateway.get(McpDispatcher).dispatch(req);
  };

  beforeAll(async () => {
    g = await startGatewayOverDemo();
  }, 120_000);
  afterAll(async () => {
    await g?.stop();
  });

  it('one question: asked with its key and request, answered, and the upstream called again', async () => {
    const { asked, questions } = channel(() => ({ action: 'accept', content: { name: 'Ada' } }));
    const result = await dispatch('upstream_test_input_required_result_elicitation', questions);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    expect(result.inputRequests).toBeUndefined();
    expect(asked).toEqual([{ key: 'user_name', request: expect.objectContaining({ method: 'elicitation/create' }) }]);
    expect(asked[0].request.params).toMatchObject({ message: 'What is your name?' });
  });

  it('two rounds at 2025-11-25: each asked in turn, the answers of both reach the tool', async () => {
    const { asked, questions } = channel((key) =>
      key === 'step1' ? { action: 'accept', content: { name: 'Grace' } } : { action: 'accept', content: { ok: true } },
    );
    const result = await dispatch('upstream_test_input_required_result_multi_round', questions, '2025-11-25');
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'step1=Grace; step2=true' }] });
    expect(asked.map((a) => a.key)).toEqual(['step1', 'step2']);
  });

  it('a question the client fails to answer fails the call with its error', async () => {
    const failing: QuestionChannel = {
      ask: () => Promise.reject(new RpcError(-32603, 'User closed the form')),
    };
    await expect(dispatch('upstream_test_input_required_result_elicitation', failing)).rejects.toMatchObject({
      code: -32603,
      message: 'User closed the form',
    });
  });

  it('without a channel: the error a local tool gets', async () => {
    const name = 'upstream_test_input_required_result_elicitation';
    const expected = legacyCallVariant({ tasks: true, tasksOn: false, serverTtl: null, pollInterval: 100 });
    await expect(dispatch(name)).rejects.toMatchObject({ message: expected.inputInRequest(name).message });
  });
});
