// The MCP Inspector's command line (@modelcontextprotocol/inspector, `inspector --cli`; needs Node 22): one
// request per run, at the era it is told (--protocol-era legacy: 2025-11-25 by initialize; modern: 2026-07-28).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  answerTo,
  caseRunner,
  expect,
  expectBadArgumentResult,
  expectStopped,
  expectVersion,
  known,
  labelFor,
  messagesOf,
  rawCall,
  rawPost,
  readWire,
  requestsOf,
  resetWire,
} from '../support/cases.mjs';

const url = process.argv[2];
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(HERE, '../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const CLI_SRC = 'inspector 2.12.0 clients/cli/build/index.js';
// Its catalog, client config and OAuth state stay out of the user's home.
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'inspector-home-'));

/** One CLI run: its exit code and its stdout parsed as JSON (else as text). */
function cli(era, argv, started) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, '--cli', url, '--protocol-era', era, '--format', 'json', ...argv], {
      env: { ...process.env, HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started?.(child);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      // A result, then (a tool error) an error envelope: the result is what it shows.
      const all = out
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => messagesOf({ response: l })[0])
        .filter(Boolean);
      resolve({ code, json: all.find((j) => j.result) ?? all.at(-1), out: out.trim() });
    });
  });
}
const call = (era, tool, args, started) =>
  cli(era, ['--method', 'tools/call', '--tool-name', tool, '--tool-args-json', JSON.stringify(args)], started);
const texts = (r) => (r.json?.result?.content ?? []).map((c) => c.text ?? '').join('\n');

for (const [era, version] of [
  ['legacy', '2025-11-25'],
  ['modern', '2026-07-28'],
]) {
  const run = caseRunner('inspector-cli', version);
  await resetWire(url);
  await run('connect+list', async () => {
    const r = await cli(era, ['--method', 'tools/list']);
    const tools = r.json?.result?.tools ?? r.json?.tools ?? [];
    expect(r.code === 0 && tools.some((t) => t.name === 'publish_release'), `exit ${r.code}: ${r.out.slice(0, 300)}`);
    await expectVersion(url, version);
    return `${tools.length} tools`;
  });
  await run('plain call', async () => {
    const r = await call(era, 'countdown', { seconds: 1 });
    expect(r.code === 0 && texts(r) === 'Counted down 1 s.', `exit ${r.code}: ${r.out.slice(0, 300)}`);
    return texts(r);
  });
  await run('progress', async () => {
    throw known(`the CLI builds its InspectorClient with progress: false (${CLI_SRC}): it asks for no progress`);
  });
  for (const name of ['question (plain call)', 'question (task)'])
    await run(name, async () => {
      throw known(`the CLI builds its InspectorClient with elicit: false (${CLI_SRC}): it declares no elicitation`);
    });
  await run('task to its end', async () => {
    // The CLI runs a tool as a task when the tool requires one; failing_job ends with a tool error.
    await resetWire(url);
    const r = await call(era, 'failing_job', {});
    const followed = requestsOf(await readWire(url)).filter((q) => q?.method?.startsWith('tasks/'));
    expect(/The job failed/.test(texts(r) || r.out), `exit ${r.code}: ${r.out.slice(0, 300)}`);
    expect(followed.length > 0, 'no tasks/* request went over the wire');
    const methods = [...new Set(followed.map((q) => q.method))].join(', ');
    return `task followed with ${methods}; ended: ${texts(r) || r.json?.error?.message}`;
  });
  await run('cancel (tasks/cancel)', async () => {
    const label = labelFor('inspector-cli', version, 'task-cancel');
    const taskId = await startTask(label);
    const r = await cli(era, ['--method', 'tasks/cancel', '--task-id', taskId]);
    if (/Unsupported method: tasks\/cancel/.test(r.out))
      throw known(
        `the CLI refuses --method tasks/cancel ("Unsupported method", ${CLI_SRC}), and a task it creates is ` +
          'followed to its end within the same run',
      );
    expect(r.code === 0, `exit ${r.code}: ${r.out.slice(0, 300)}`);
    return `tasks/cancel ${taskId}; server: ${await expectStopped(url, label)}`;
  });
  await run('cancel (SIGINT)', async () => {
    // The CLI's own way to stop a run: Ctrl-C.
    const label = labelFor('inspector-cli', version, 'cancel');
    const ended = call(era, 'countdown', { seconds: 30, label }, (child) =>
      setTimeout(() => child.kill('SIGINT'), 4000),
    );
    const r = await ended;
    const stopped = await expectStopped(url, label, 5000).catch(() => undefined);
    const { request } = await answerTo(url, 'countdown');
    const cancelled = requestsOf(await readWire(url)).some(
      (q) => q?.method === 'notifications/cancelled' && q.params?.requestId === request?.id,
    );
    if (!cancelled && !stopped) {
      const line = (await rawCall(url, 'countdown_log')).split('\n').find((l) => l.startsWith(`${label} `));
      const task = /\(task ([^)-][^)]*)\)/.exec(line ?? '')?.[1];
      throw known(
        `on SIGINT the CLI exits (${r.code ?? 'by the signal'}) sending neither notifications/cancelled nor ` +
          `tasks/cancel${task ? `; the server ran the call as task ${task}, which goes on (as a task should)` : ''}`,
      );
    }
    expect(stopped, `notifications/cancelled sent, but countdown ${label} did not stop`);
    return `${cancelled ? 'notifications/cancelled' : 'request closed'}; server: ${stopped}`;
  });
  await run('unknown tool', async () => {
    const r = await call(era, 'no_such_tool', {});
    const { sent } = await answerTo(url, 'no_such_tool');
    if (!sent && r.json?.error?.code === 'tool_not_found')
      throw known(
        `the CLI looks the name up in its own tools/list and sends no tools/call (${CLI_SRC}, tool_not_found)`,
      );
    expect(sent, `exit ${r.code}: ${r.out.slice(0, 300)}`);
    return `exit ${r.code}: ${r.out.slice(0, 200)}`;
  });
  await run('bad argument', async () => {
    const r = await call(era, 'countdown', { seconds: 'ten' });
    const text = await expectBadArgumentResult(url, 'countdown');
    expect(r.out.includes('seconds'), `the CLI did not show it: ${r.out.slice(0, 300)}`);
    return text;
  });
}
fs.rmSync(home, { recursive: true, force: true });

/** A countdown task made by this harness at 2026-07-28 (tasks are addressed by id there), for the CLI to cancel. */
async function startTask(label) {
  const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
  const message = await rawPost(url, 'countdown', { seconds: 60, label }, tasks);
  expect(message?.result?.taskId, `no task: ${JSON.stringify(message ?? null).slice(0, 200)}`);
  return message.result.taskId;
}
