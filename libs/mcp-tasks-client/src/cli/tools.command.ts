import { TASK_SUPPORT_META } from './cli.constants.js';
import type { CliIo } from './cli-io.js';
import { connectCli } from './cli-connection.factory.js';
import type { SharedFlags } from './cli.options.js';
import { ExitCode } from './cli.constants.js';
import { taskPolicyOf } from './task-policy.reader.js';

/** `tools <url>`: the server's tools with their task policy (`sync`, `optional`, `required`; `-`: not said). */
export async function toolsCommand(url: string, flags: SharedFlags, io: CliIo): Promise<number> {
  const client = await connectCli(url, flags, { tasks: true });
  try {
    const { tools } = await client.sdk.listTools();
    if (flags.json) {
      io.out(JSON.stringify(tools, null, 2));
      return ExitCode.ok;
    }
    const rows = tools.map((t) => [t.name, taskPolicyOf(t, client.legacy), oneLine(t.description ?? '')]);
    const widths = [0, 1].map((c) => Math.max(c ? 4 : 4, ...rows.map((r) => r[c].length)));
    const room = io.tty ? Math.max(20, io.columns - widths[0] - widths[1] - 4) : Infinity;
    for (const [name, task, description] of [['TOOL', 'TASK', 'DESCRIPTION'], ...rows])
      io.out(`${name.padEnd(widths[0])}  ${task.padEnd(widths[1])}  ${clip(description, room)}`.trimEnd());
    io.err(
      `${tools.length} tools at ${client.protocolVersion}` +
        (rows.some((r) => r[1] === '-')
          ? `; TASK "-": the server does not say (at 2026-07-28, _meta["${TASK_SUPPORT_META}"])`
          : ''),
    );
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const clip = (text: string, room: number): string => (text.length <= room ? text : `${text.slice(0, room - 1)}…`);
