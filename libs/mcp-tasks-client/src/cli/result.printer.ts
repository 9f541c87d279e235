import type { CallToolResult } from '@modelcontextprotocol/client';
import type { McpTask } from '../mcp-task.interface.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './cli.constants.js';

/** The content of a tool result as lines: text as it is, other blocks as a short description. */
export function contentLines(result: CallToolResult): string[] {
  return (result.content ?? []).map((block) => {
    const b = block as {
      type: string;
      text?: string;
      mimeType?: string;
      data?: string;
      uri?: string;
      resource?: { uri?: string };
    };
    if (b.type === 'text') return b.text ?? '';
    if (b.type === 'image' || b.type === 'audio')
      return `[${b.type} ${b.mimeType ?? ''}, ${Buffer.from(b.data ?? '', 'base64').length} bytes]`;
    if (b.type === 'resource_link') return `[resource ${b.uri ?? ''}]`;
    if (b.type === 'resource') return `[resource ${b.resource?.uri ?? ''}]`;
    return `[${b.type}]`;
  });
}

/** Prints a tool result (text, or the raw result with `json`); a tool error exits non-zero. */
export function printResult(result: CallToolResult, io: CliIo, json: boolean): number {
  if (json) io.out(JSON.stringify(result, null, 2));
  else for (const line of contentLines(result)) io.out(line);
  return result.isError ? ExitCode.failed : ExitCode.ok;
}

/** Prints how a task ended: its result when `completed`, else its error (stderr) or the raw task with `json`. */
export function printOutcome(task: McpTask, io: CliIo, json: boolean): number {
  if (task.status === 'completed' && task.result) return printResult(task.result, io, json);
  if (json) io.out(JSON.stringify(task, null, 2));
  else if (task.status === 'failed')
    io.err(
      `error: task ${task.taskId} failed: ${task.error ? `${task.error.code} ${task.error.message}` : 'no error'}`,
    );
  else io.err(`task ${task.taskId} was cancelled`);
  return task.status === 'cancelled' ? ExitCode.cancelled : ExitCode.failed;
}
