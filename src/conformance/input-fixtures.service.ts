import { Injectable } from '@nestjs/common';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';

const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const OK_SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
const CAPITAL = {
  messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
  maxTokens: 100,
};

const text = (r: Record<string, unknown>): string => String((r.content as { text?: string } | undefined)?.text ?? '');

/** MRTR fixtures (`input-required-result-*` and `server-stateless` scenarios). */
@Injectable()
export class InputFixtures {
  @McpTool({ name: 'test_input_required_result_elicitation', description: 'Asks for a name (elicitation).' })
  async elicitation(_a: object, ctx: ToolContext): Promise<string> {
    const r = await ctx.elicit('user_name', 'What is your name?', NAME_SCHEMA);
    return `Hello, ${String(r.content?.name ?? 'stranger')}!`;
  }

  @McpTool({
    name: 'test_input_required_result_sampling',
    description: "Asks the client's model a question (sampling).",
  })
  async sampling(_a: object, ctx: ToolContext): Promise<string> {
    return `The model said: ${text(await ctx.sample('capital_question', CAPITAL))}`;
  }

  @McpTool({ name: 'test_input_required_result_list_roots', description: "Asks for the client's roots." })
  async listRoots(_a: object, ctx: ToolContext): Promise<string> {
    const { roots } = await ctx.roots('client_roots');
    return `Found ${roots.length} roots: ${roots.map((r) => r.uri).join(', ')}`;
  }

  @McpTool({
    name: 'test_input_required_result_request_state',
    description: 'One confirmation, carried through requestState.',
  })
  async requestState(_a: object, ctx: ToolContext): Promise<string> {
    const r = await ctx.elicit('confirm', 'Continue?', OK_SCHEMA);
    return `state-ok: confirmed=${String(r.content?.ok)}`;
  }

  @McpTool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Asks for elicitation, sampling and roots at once.',
  })
  async multiple(_a: object, ctx: ToolContext): Promise<string> {
    const [who, model, { roots }] = await Promise.all([
      ctx.elicit('user_name', 'What is your name?', NAME_SCHEMA),
      ctx.sample('capital_question', CAPITAL),
      ctx.roots('client_roots'),
    ]);
    return `name=${String(who.content?.name)}; model=${text(model)}; roots=${roots.length}`;
  }

  @McpTool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions in two rounds.' })
  async multiRound(_a: object, ctx: ToolContext): Promise<string> {
    const one = await ctx.elicit('step1', 'Step 1: your name?', NAME_SCHEMA);
    const two = await ctx.elicit('step2', 'Step 2: continue?', OK_SCHEMA);
    return `step1=${String(one.content?.name)}; step2=${String(two.content?.ok)}`;
  }

  @McpTool({
    name: 'test_input_required_result_tampered_state',
    description: 'Refuses a requestState that was changed.',
  })
  async tampered(_a: object, ctx: ToolContext): Promise<string> {
    const r = await ctx.elicit('confirm', 'Continue?', OK_SCHEMA);
    return `confirmed=${String(r.content?.ok)}`;
  }

  @McpTool({ name: 'test_input_required_result_capabilities', description: 'Asks only for what the client declared.' })
  async capabilities(_a: object, ctx: ToolContext): Promise<string> {
    const caps = ctx.clientCapabilities;
    if (caps.elicitation)
      return `name=${String((await ctx.elicit('user_name', 'Your name?', NAME_SCHEMA)).content?.name)}`;
    if (caps.sampling) return `model=${text(await ctx.sample('capital_question', CAPITAL))}`;
    if (caps.roots) return `roots=${(await ctx.roots('client_roots')).roots.length}`;
    return 'The client declared no way to give input.';
  }

  @McpTool({ name: 'test_missing_capability', description: 'Needs the sampling capability.' })
  async missingCapability(_a: object, ctx: ToolContext): Promise<string> {
    return text(await ctx.sample('question', CAPITAL));
  }

  @McpTool({ name: 'test_streaming_elicitation', description: 'Asks for a name right away.' })
  async streamingElicitation(_a: object, ctx: ToolContext): Promise<string> {
    return `Hello, ${String((await ctx.elicit('user_name', 'What is your name?', NAME_SCHEMA)).content?.name)}`;
  }

  // It logs, so the suite's check that a call without _meta logLevel gets no notifications/message can fail.
  @McpTool({ name: 'test_logging_tool', description: 'Logs at info: sent only to a call that asked for a level.' })
  async logging(_a: object, ctx: ToolContext): Promise<string> {
    await ctx.log('info', 'Logging tool ran');
    return 'Logging tool done';
  }
}
