import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, RpcError, ToolError, type ToolContext } from '@mcp-tasks/nestjs';
import { ConfirmDeleteDto, GreetDto, SlowComputeDto } from './fixture.dto.js';

const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const CONFIRM_SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

/** The tools the conformance suite's `tasks-*` scenarios call by name. */
@Injectable()
export class TaskFixtures {
  @McpTool({ name: 'greet', description: 'Greets someone (always synchronous).', input: GreetDto })
  greet(args: GreetDto): string {
    return `Hello, ${args.name}!`;
  }

  @McpTool({
    name: 'slow_compute',
    description: 'Computes for `seconds` seconds; a task when the client supports tasks.',
    input: SlowComputeDto,
    task: 'optional',
  })
  async slowCompute(args: SlowComputeDto, ctx: ToolContext): Promise<string> {
    await sleep(args.seconds * 1000, undefined, { signal: ctx.signal });
    return `Computed ${args.label ?? 'result'} in ${args.seconds}s`;
  }

  @McpTool({ name: 'failing_job', description: 'A task that ends with a tool error.', task: 'required' })
  async failingJob(): Promise<never> {
    await sleep(300);
    throw new ToolError('The job failed: the input could not be processed');
  }

  @McpTool({
    name: 'protocol_error_job',
    description: 'A task that ends failed with a JSON-RPC error.',
    task: 'required',
  })
  async protocolErrorJob(): Promise<never> {
    await sleep(300);
    throw new RpcError(-32603, 'The job hit a protocol-level failure');
  }

  @McpTool({
    name: 'confirm_delete',
    description: 'Asks for confirmation, then deletes a file.',
    input: ConfirmDeleteDto,
    task: 'required',
  })
  async confirmDelete(args: ConfirmDeleteDto, ctx: ToolContext): Promise<string> {
    const answer = await ctx.elicit('confirm', `Delete ${args.filename}?`, CONFIRM_SCHEMA);
    return answer.action === 'accept' && answer.content?.confirm === true
      ? `Deleted ${args.filename}`
      : `Kept ${args.filename}`;
  }

  @McpTool({ name: 'multi_input', description: 'Asks two questions at once.', task: 'required' })
  async multiInput(_args: object, ctx: ToolContext): Promise<string> {
    const [name, confirm] = await Promise.all([
      ctx.elicit('name', 'What is your name?', NAME_SCHEMA),
      ctx.elicit('confirm', 'Shall I go ahead?', CONFIRM_SCHEMA),
    ]);
    return `Hello, ${String(name.content?.name ?? 'nobody')}; confirmed: ${String(confirm.content?.confirm ?? false)}`;
  }

  @McpTool({
    name: 'test_tool_with_task',
    description: 'Asks for a name in the request (MRTR), then runs as a task.',
    task: 'required',
    prepare: 'askName',
  })
  async withTask(_args: object, ctx: ToolContext): Promise<string> {
    const answer = await ctx.elicit('user_name', 'What is your name?', NAME_SCHEMA);
    return `Hello, ${String(answer.content?.name ?? 'stranger')}! (answered before the task started)`;
  }

  async askName(_args: object, ctx: ToolContext): Promise<void> {
    await ctx.elicit('user_name', 'What is your name?', NAME_SCHEMA);
  }
}
