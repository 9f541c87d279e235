import { connect, type McpTasksClient } from '@mcp-tasks/client';
import { AppProcess } from './app-process.js';

export interface DemoProcess {
  process: AppProcess;
  url: string;
  /** A client of the demo itself (Tasks extension declared), to check on it directly. */
  client: McpTasksClient;
  stop(): Promise<void>;
}

/** The built demo (`dist/src/main.js`) as a child process, with `env` added, and a client of its own (with `token`). */
export async function startDemoProcess(
  env: Record<string, string> = {},
  port?: number,
  token?: string,
): Promise<DemoProcess> {
  const process = await AppProcess.start({ script: 'dist/src/main.js', env: { MCP_TELEMETRY: '0', ...env }, port });
  const url = `http://127.0.0.1:${process.port}/mcp`;
  const client = await connect(url, { tasks: true, token });
  return {
    process,
    url,
    client,
    async stop() {
      await client.close().catch(() => undefined);
      await process.stop();
    },
  };
}

/** The text of a synchronous call's first content block. */
export async function textOf(
  client: McpTasksClient,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = (await client.request('tools/call', { name: tool, arguments: args }, { capabilities: {} })) as {
    content: Array<{ text?: string }>;
  };
  return result.content[0]?.text ?? '';
}
