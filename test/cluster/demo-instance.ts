import { STATE_SECRET } from '../fixtures/cluster-app.js';
import { AppProcess } from '../support/app-process.js';
import { TASKS, VERSION } from '../support/mcp-request.js';

/** The built demo (`dist/src/main.js`) as a separate process on the pair's store and bus, with a 1 s lease. */
export function startDemo(env: Record<string, string>, lease: number): Promise<AppProcess> {
  return AppProcess.start({
    script: 'dist/src/main.js',
    env: { ...env, MCP_LEASE: String(lease), MCP_STATE_SECRET: STATE_SECRET },
    // Booting the built demo took over 60 s with five suites at once on a loaded 2-core machine.
    readyMs: 150_000,
  });
}

/** Calls `tool` on the demo as a task and returns its id. */
export async function startDemoTask(demo: AppProcess, tool: string, args: Record<string, unknown>): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${demo.port}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': tool,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientCapabilities': TASKS,
        },
      },
    }),
  });
  const body = (await res.json()) as { result?: { taskId?: string } };
  if (!body.result?.taskId) throw new Error(`the demo did not start a task: ${JSON.stringify(body)}`);
  return body.result.taskId;
}
