import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type McpTasksClient } from '@mcp-tasks/client';
import { ROOT, runCli, spawnCli, startDemoProcess, type DemoProcess } from './support/cli-process.js';
import { freePort } from './support/free-port.js';
import { startLegacySdkServer, type LegacySdkServer } from './fixtures/legacy-sdk-server.js';

const ESC = '\u001b';
const TASK_LINE = /^task (\S{24}) \(([^)]+)\)$/m;

/**
 * The terminal CLI (`npx @mcp-tasks/client …`, built) against the built demo, with stdio piped — no
 * terminal, as in a script or CI: plain lines without escape codes, and exit codes a script can use.
 */
describe('client CLI without a terminal (built demo)', () => {
  let demo: DemoProcess;
  let legacy: LegacySdkServer;
  let client: McpTasksClient;
  beforeAll(async () => {
    demo = await startDemoProcess();
    legacy = await startLegacySdkServer();
    client = await connect(demo.url, { tasks: true, handlers: { elicitation: () => ({ action: 'decline' }) } });
  }, 90_000);
  afterAll(async () => {
    await client?.close();
    await legacy?.close();
    await demo?.stop();
  });

  it('call: the result on stdout, one plain line per task state on stderr, exit 0', async () => {
    const run = await runCli([
      'call',
      demo.url,
      'export_project',
      '--arg',
      'project=demo',
      '--arg',
      'files=3',
      '--arg',
      'delayMs=400',
    ]);
    expect(run).toMatchObject({ code: 0, stdout: 'Exported 3 of 3 files of demo.\n' });
    expect(run.stdout + run.stderr).not.toContain(ESC);
    const [, taskId, label] = TASK_LINE.exec(run.stderr)!;
    expect(label).toBe('export_project');
    const states = run.stderr
      .split('\n')
      .filter((l) => l.startsWith(`task ${taskId}: `))
      .map((l) => l.slice(`task ${taskId}: `.length));
    expect(states[0]).toMatch(/^working/);
    expect(states.at(-1)).toBe('completed: exporting demo (3/3)');
    // Each state once, in order.
    expect(new Set(states).size).toBe(states.length);
    const counts = states.map((s) => /\((\d)\/3\)$/.exec(s)?.[1]).filter(Boolean);
    expect(counts).toEqual([...counts].sort((a, b) => Number(a) - Number(b)));
    expect((await client.getTask(taskId)).status).toBe('completed');
  });

  it('call --json prints the raw result; --no-tasks runs a task-capable tool synchronously', async () => {
    const json = await runCli(['call', demo.url, 'greet', '--args', '{"name":"Bob"}', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ content: [{ type: 'text', text: 'Hello, Bob!' }] });
    const sync = await runCli(['call', demo.url, 'slow_compute', '--arg', 'seconds=0.2', '--no-tasks']);
    expect(sync).toMatchObject({ code: 0, stdout: 'Computed result in 0.2s\n', stderr: '' });
  });

  it('exit codes: 1 for a tool error and a failed task, 3 for a task cancelled elsewhere', async () => {
    const toolError = await runCli(['call', demo.url, 'failing_job']);
    expect(toolError).toMatchObject({ code: 1, stdout: 'The job failed: the input could not be processed\n' });
    expect(toolError.stderr).toMatch(/: completed with a tool error$/m);

    const failed = await runCli(['call', demo.url, 'protocol_error_job', '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The job hit a protocol-level failure' },
    });

    const call = spawnCli(['call', demo.url, 'slow_compute', '--arg', 'seconds=30']);
    const [, taskId] = await call.waitForStderr(TASK_LINE);
    const cancel = await runCli(['cancel', demo.url, taskId]);
    expect(cancel).toMatchObject({ code: 0, stdout: `task ${taskId}: cancelled\n` });
    const ended = await call.done;
    expect(ended.code).toBe(3);
    expect(ended.stderr).toContain(`task ${taskId} was cancelled`);
    const again = await runCli(['cancel', demo.url, taskId]);
    expect(again.stdout).toBe(`task ${taskId}: cancelled (it had ended before the cancel)\n`);
  });

  // Each CLI run is a Node process start (seconds on a loaded 2-core machine): independent runs go side by side,
  // in two tests, rather than a dozen in a row against one test's 30 s.
  it('exit code 2 for a bad command line', async () => {
    const [badJson, badArg, both, unknownCommand, notUrl] = await Promise.all([
      runCli(['call', demo.url, 'greet', '--args', '{']),
      runCli(['call', demo.url, 'export_project', '--arg', 'files=many']),
      runCli(['call', demo.url, 'greet', '--args', '{}', '--arg', 'a=1']),
      runCli(['frobnicate']),
      runCli(['call', 'not-a-url', 'greet']),
    ]);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/^error: --args is not JSON/);
    expect(badArg).toMatchObject({ code: 2, stderr: 'error: --arg files: "many" is not a integer\n' });
    expect(both.code).toBe(2);
    expect(unknownCommand.code).toBe(2);
    expect(notUrl.stderr).toBe('error: not a URL: "not-a-url" (e.g. http://127.0.0.1:3000/mcp)\n');
  });

  it('exit code 1 for a JSON-RPC or connection error', async () => {
    const port = await freePort();
    const [unknown, refused, required, ...dashed] = await Promise.all([
      runCli(['get', demo.url, 'no-such-task']),
      runCli(['tools', `http://127.0.0.1:${port}/mcp`]),
      runCli(['call', demo.url, 'confirm_delete', '--arg', 'filename=x', '--no-tasks']),
      // Task ids are base64url: one may start with '-' and is still a task id, not an option — not even the CLI's
      // own -V (version) or -h (help).
      ...['get', 'cancel', 'watch'].flatMap((command) =>
        ['-AAAAAAAAAAAAAAAAAAAAAAA', '-VAAAAAAAAAAAAAAAAAAAAAA', '-hAAAAAAAAAAAAAAAAAAAAAA'].map((id) =>
          runCli([command, demo.url, id, '--json']),
        ),
      ),
    ]);
    expect(unknown).toMatchObject({ code: 1, stderr: 'error: -32602 Task not found\n' });
    for (const run of dashed) expect(run).toMatchObject({ code: 1, stderr: 'error: -32602 Task not found\n' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .*ECONNREFUSED/);
    expect(required.code).toBe(1);
    expect(required.stderr).toMatch(/^error: -32021 /);
  });

  it('Ctrl-C (SIGINT) cancels the task on the server before exiting 130', async () => {
    const call = spawnCli(['call', demo.url, 'slow_compute', '--arg', 'seconds=60']);
    const [, taskId] = await call.waitForStderr(TASK_LINE);
    await call.waitForStderr(/: working$/m);
    call.child.kill('SIGINT');
    const ended = await call.done;
    expect(ended.code).toBe(130);
    expect(ended.stderr).toContain(`cancelling task ${taskId}`);
    expect(ended.stderr).toContain(`task ${taskId}: cancelled`);
    expect((await client.getTask(taskId)).status).toBe('cancelled');
  });

  it('sampling and roots are answered only from --sampling-text and --root', async () => {
    const sampled = await runCli(['call', demo.url, 'test_input_required_result_sampling', '--sampling-text', 'Paris']);
    expect(sampled).toMatchObject({ code: 0, stdout: 'The model said: Paris\n' });
    expect(sampled.stderr).toBe('answered sampling request "capital_question" with --sampling-text\n');
    const rooted = await runCli([
      'call',
      demo.url,
      'test_input_required_result_list_roots',
      '--root',
      'file:///a',
      '--root',
      'file:///b',
    ]);
    expect(rooted).toMatchObject({ code: 0, stdout: 'Found 2 roots: file:///a, file:///b\n' });
    const undeclared = await runCli(['call', demo.url, 'test_input_required_result_sampling']);
    expect(undeclared.code).toBe(1);
    expect(undeclared.stderr).toContain('needs the client capability "sampling"');
  });

  it('tools lists every tool with its task policy, on 2026-07-28 and on 2025-11-25 alike', async () => {
    const [modern, legacyRun, json] = await Promise.all([
      runCli(['tools', demo.url]),
      runCli(['tools', demo.url, '--legacy', 'only']),
      runCli(['tools', demo.url, '--json']),
    ]);
    const policies = (run: { stdout: string }) =>
      Object.fromEntries(
        run.stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((r) => r.split(/ +/).slice(0, 2)),
      );
    for (const run of [modern, legacyRun]) {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^TOOL +TASK +DESCRIPTION\n/);
      expect(policies(run)).toMatchObject({
        greet: 'sync',
        word_count: 'sync',
        slow_compute: 'optional',
        publish_release: 'optional',
        confirm_delete: 'required',
        failing_job: 'required',
      });
      expect(Object.values(policies(run))).not.toContain('-');
    }
    expect(policies(modern)).toEqual(policies(legacyRun));
    expect(modern.stderr).toMatch(/^\d+ tools at 2026-07-28\n$/);
    expect(legacyRun.stderr).toMatch(/^\d+ tools at 2025-11-25\n$/);
    // At 2026-07-28 the policy travels in the tool's _meta, under the library's own key, with 2025-11-25's values.
    const tools = JSON.parse(json.stdout) as Array<{ name: string; _meta?: Record<string, unknown> }>;
    expect(tools.map((t) => t.name)).toEqual(Object.keys(policies(modern)));
    expect(tools.find((t) => t.name === 'greet')?._meta).toEqual({ 'mcp-tasks/taskSupport': 'forbidden' });
    expect(tools.find((t) => t.name === 'confirm_delete')?._meta).toEqual({ 'mcp-tasks/taskSupport': 'required' });
  });

  it('get prints a task field by field, or raw with --json', async () => {
    const done = await client.runTool('export_project', { project: 'shown', files: 1, delayMs: 0 });
    expect(done.content).toEqual([{ type: 'text', text: 'Exported 1 of 1 files of shown.' }]);
    const call = await client.callTool('confirm_delete', { filename: 'g.txt' });
    if (call.kind !== 'task') throw new Error('expected a task');
    await waitForStatus(client, call.task.taskId, 'input_required');
    const run = await runCli(['get', demo.url, call.task.taskId]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^task +${call.task.taskId}\nstatus +input_required\n` +
          `asks +confirm: Delete g.txt\\? \\(elicitation/create\\)\ncreated .*\nupdated .*\nttl +3600000 ms\n$`,
      ),
    );
    const json = await runCli(['get', demo.url, call.task.taskId, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(await client.getTask(call.task.taskId));
    await client.cancelTask(call.task.taskId);
  });

  it('watch follows a running task to its end; without a terminal it leaves questions alone', async () => {
    const exporting = await client.callTool('export_project', { project: 'w', files: 3, delayMs: 400 });
    if (exporting.kind !== 'task') throw new Error('expected a task');
    const watched = await runCli(['watch', demo.url, exporting.task.taskId]);
    expect(watched).toMatchObject({ code: 0, stdout: 'Exported 3 of 3 files of w.\n' });
    expect(watched.stderr).toMatch(/: completed: exporting w \(3\/3\)$/m);
    expect(watched.stderr).not.toContain(ESC);

    const asking = await client.callTool('confirm_delete', { filename: 'w.txt' });
    if (asking.kind !== 'task') throw new Error('expected a task');
    const watch = spawnCli(['watch', demo.url, asking.task.taskId]);
    await watch.waitForStderr(/: input_required: Delete w\.txt\?$/m);
    // The watcher did not answer: the question waits for its owner.
    await client.updateTask(asking.task.taskId, { confirm: { action: 'accept', content: { confirm: true } } });
    expect(await watch.done).toMatchObject({ code: 0, stdout: 'Deleted w.txt\n' });
  });

  it('--legacy fallback (the default) lists and calls 2025-11-25 tools; task commands say why not', async () => {
    const tools = await runCli(['tools', legacy.url.href]);
    expect(tools.code).toBe(0);
    // 2025-11-25 without execution.taskSupport: forbidden, i.e. synchronous.
    expect(tools.stdout).toMatch(/^echo +sync +Echoes a text$/m);
    expect(tools.stderr).toMatch(/^2 tools at 2025-11-25/);
    const echoed = await runCli(['call', legacy.url.href, 'echo', '--arg', 'text=hello']);
    expect(echoed).toMatchObject({ code: 0, stdout: 'echo: hello\n', stderr: '' });
    const never = await runCli(['call', legacy.url.href, 'echo', '--arg', 'text=x', '--legacy', 'never']);
    expect(never.code).toBe(1);
    expect(never.stderr).toMatch(/did not offer pinned protocol version 2026-07-28/);
    const get = await runCli(['get', legacy.url.href, 'some-task']);
    expect(get.code).toBe(1);
    expect(get.stderr).toMatch(/did not offer pinned protocol version 2026-07-28/);
  });

  it('runs as the package bin: npx @mcp-tasks/client', async () => {
    const npx = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          'npx',
          ['--no', '--', '@mcp-tasks/client', ...args],
          { cwd: ROOT, timeout: 60_000 },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
        ),
      );
    const { version } = JSON.parse(readFileSync(`${ROOT}libs/mcp-tasks-client/package.json`, 'utf8')) as {
      version: string;
    };
    expect(await npx(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(await npx(['get', demo.url, 'no-such-task'])).toMatchObject({
      code: 1,
      stderr: 'error: -32602 Task not found\n',
    });
  }, 120_000);
});

async function waitForStatus(client: McpTasksClient, taskId: string, status: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while ((await client.getTask(taskId)).status !== status) {
    if (Date.now() > deadline) throw new Error(`task ${taskId} did not reach ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
