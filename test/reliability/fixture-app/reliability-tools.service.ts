import { Injectable, InternalServerErrorException } from '@nestjs/common';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';
import { ProcessCensus } from './process-census.js';
import { RelLeakDto, RelRoundsDto, RelStatsDto } from './reliability.dto.js';
import { StopEventsRecorder } from './stop-events.recorder.js';

const VALUE_SCHEMA = { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] };

/** The secret the tools throw: known to the server and the suite, never sent by the suite. */
const secret = (): string => process.env.MCP_RELIABILITY_SECRET ?? 'reliability-secret-unset';

/** Throws the secret in one of several forms (what careless code does with a password or a query). */
function leak(form: RelLeakDto['form']): never {
  const text = `connection to db://admin:${secret()}@10.0.0.1 failed`;
  switch (form) {
    case 'error':
      throw new Error(text);
    case 'type-error':
      throw new TypeError(text);
    case 'cause':
      throw new Error('wrapper', { cause: new Error(text) });
    case 'string':
      throw text;
    case 'object':
      throw { message: text, code: -32000, data: { secret: secret() } };
    case 'http-500':
      throw new InternalServerErrorException(text);
    case 'rejected-promise':
      throw Object.assign(new Error(text), { name: 'QueryFailedError', query: `SELECT '${secret()}'` });
  }
}

/**
 * Tools for `npm run test:reliability` only (its fixture app adds them to the demo): the
 * process's memory and what it holds, the stop events it emitted, tools that throw a server-side
 * secret, a task asking many input keys, and a synchronous run that only reports progress.
 */
@Injectable()
export class ReliabilityTools {
  constructor(
    private readonly census: ProcessCensus,
    private readonly stops: StopEventsRecorder,
  ) {}

  @McpTool({
    name: 'rel_stats',
    description: 'Process memory (after a full GC when asked and exposed), handles, timers, listens, bus subscribers.',
    input: RelStatsDto,
  })
  stats(args: RelStatsDto): string {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (args.gc && gc) for (let i = 0; i < 3; i++) gc();
    return JSON.stringify({ pid: process.pid, gc: !!gc, memory: process.memoryUsage(), ...this.census.take() });
  }

  @McpTool({ name: 'rel_stop_events', description: 'The mcp.task.stop events of task runs, by task id.' })
  stopEvents(): string {
    return JSON.stringify(this.stops.all());
  }

  @McpTool({
    name: 'rel_progress',
    description: 'Reports progress every 10 ms for `rounds` rounds, in the request; stops when the client leaves.',
    input: RelRoundsDto,
  })
  async progress(args: RelRoundsDto, ctx: ToolContext): Promise<string> {
    for (let i = 0; i < args.rounds && !ctx.cancelled; i++) {
      await ctx.progress(i + 1, args.rounds, 'working');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return `reported ${args.rounds}`;
  }

  @McpTool({ name: 'rel_leak_sync', description: 'Throws a secret, in the request.', input: RelLeakDto })
  leakSync(args: RelLeakDto): never {
    leak(args.form);
  }

  @McpTool({ name: 'rel_leak_task', description: 'Throws a secret, as a task.', input: RelLeakDto, task: 'required' })
  async leakTask(args: RelLeakDto): Promise<never> {
    await new Promise((resolve) => setTimeout(resolve, 10));
    leak(args.form);
  }

  @McpTool({
    name: 'rel_leak_prepare',
    description: 'Throws a secret before its task exists.',
    input: RelLeakDto,
    task: 'required',
    prepare: 'leakEarly',
  })
  async leakLate(): Promise<string> {
    return 'unreachable';
  }

  leakEarly(args: RelLeakDto): never {
    leak(args.form);
  }

  @McpTool({
    name: 'rel_rounds',
    description: 'Asks keys k0..kN-1 one after another, re-asking every earlier key in between.',
    input: RelRoundsDto,
    task: 'required',
  })
  async rounds(args: RelRoundsDto, ctx: ToolContext): Promise<string> {
    const seen: Record<string, unknown> = {};
    for (let i = 0; i < args.rounds; i++) {
      for (let j = 0; j < i; j++) {
        const again = await ctx.elicit(`k${j}`, `Key k${j} again`, VALUE_SCHEMA);
        if (JSON.stringify(again) !== JSON.stringify(seen[`k${j}`])) return `k${j} changed: ${JSON.stringify(again)}`;
      }
      seen[`k${i}`] = await ctx.elicit(`k${i}`, `Key k${i}?`, VALUE_SCHEMA);
    }
    return JSON.stringify(
      Object.fromEntries(
        Object.entries(seen).map(([k, v]) => [k, (v as { content?: { value?: unknown } }).content?.value ?? null]),
      ),
    );
  }
}
