import type { CliIo } from './cli-io.js';
import { connectCli, type ConnectionFlags } from './cli-connection.js';
import { ExitCode } from './exit-codes.js';

/** What `tools/list` says of a tool's task policy: `execution.taskSupport`, which only the 2025-11-25 wire carries. */
const policyOf = (tool: { execution?: { taskSupport?: string } }): string => tool.execution?.taskSupport ?? '-';

/** `tools <url>`: the server's tools with their task policy as far as the wire shows it. */
export async function toolsCommand(
  url: string,
  flags: ConnectionFlags & { json?: boolean },
  io: CliIo,
): Promise<number> {
  const client = await connectCli(url, flags, { tasks: true });
  try {
    const { tools } = await client.sdk.listTools();
    if (flags.json) {
      io.out(JSON.stringify(tools, null, 2));
      return ExitCode.ok;
    }
    const rows = tools.map((t) => [t.name, policyOf(t), oneLine(t.description ?? '')]);
    const widths = [0, 1].map((c) => Math.max(c ? 4 : 4, ...rows.map((r) => r[c].length)));
    const room = io.tty ? Math.max(20, io.columns - widths[0] - widths[1] - 4) : Infinity;
    for (const [name, task, description] of [['TOOL', 'TASK', 'DESCRIPTION'], ...rows])
      io.out(`${name.padEnd(widths[0])}  ${task.padEnd(widths[1])}  ${clip(description, room)}`.trimEnd());
    io.err(
      `${tools.length} tools at ${client.protocolVersion}` +
        (rows.every((r) => r[1] === '-')
          ? '; TASK "-": this wire does not show task policies (2026-07-28 never does)'
          : ''),
    );
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const clip = (text: string, room: number): string => (text.length <= room ? text : `${text.slice(0, room - 1)}…`);
