import type { McpTask } from '../mcp-task.interface.js';
import type { CliIo } from './cli-io.js';
import { connectCli } from './cli-connection.factory.js';
import type { SharedFlags } from './cli.options.js';
import { ExitCode } from './cli.constants.js';
import { contentLines } from './result.printer.js';
import { questionText } from './task-display.interface.js';

/** `get <url> <taskId>`: one `tasks/get`, printed field by field (or raw with `--json`). */
export async function getCommand(url: string, taskId: string, flags: SharedFlags, io: CliIo): Promise<number> {
  const client = await connectCli(url, flags, { tasks: true });
  try {
    const task = await client.getTask(taskId);
    if (flags.json) io.out(JSON.stringify(task, null, 2));
    else for (const [field, value] of fields(task)) io.out(`${field.padEnd(8)} ${value}`);
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}

/** The task as label/value lines; a result's text spreads over the lines after `result`. */
export function fields(task: McpTask): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ['task', task.taskId],
    ['status', task.status],
  ];
  if (task.statusMessage) rows.push(['message', task.statusMessage]);
  for (const [key, request] of Object.entries(task.inputRequests ?? {}))
    rows.push(['asks', `${key}: ${questionText(request)} (${request.method})`]);
  if (task.error) rows.push(['error', `${task.error.code} ${task.error.message}`]);
  if (task.result) {
    const lines = contentLines(task.result);
    rows.push([task.result.isError ? 'error' : 'result', lines[0] ?? '']);
    for (const line of lines.slice(1)) rows.push(['', line]);
  }
  rows.push(['created', task.createdAt], ['updated', task.lastUpdatedAt]);
  rows.push(['ttl', task.ttlMs === null ? 'none' : `${task.ttlMs} ms`]);
  return rows;
}
