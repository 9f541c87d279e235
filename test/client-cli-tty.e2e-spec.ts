import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type McpTasksClient } from '@mcp-tasks/client';
import { CLI_MAIN, startDemoProcess, type DemoProcess } from './support/cli-process.js';
import { ensureTmux, TmuxSession } from './support/tmux-session.js';

/** A frame of the progress bar: filled and empty cells, then the counts and the label. */
const barFrame = (done: string, total: number, label: string) =>
  new RegExp(`[\\u2588]+[\\u2591]* ${done}/${total} ${label}`);
const TASK_ID = /^task (\S{24}) \(/m;

/**
 * The terminal CLI driven as a person would, in a pseudo-terminal (a tmux pane, 120×40) against the built
 * demo: the progress bar and spinner are drawn, questions are answered by typed keys, Ctrl-C cancels.
 */
describe('client CLI in a terminal (tmux, built demo)', () => {
  let demo: DemoProcess;
  let client: McpTasksClient;
  let tmux: TmuxSession | undefined;
  beforeAll(async () => {
    ensureTmux();
    demo = await startDemoProcess();
    client = await connect(demo.url, { tasks: true });
  }, 600_000);
  afterEach(() => {
    tmux?.kill();
    tmux = undefined;
  });
  afterAll(async () => {
    await client?.close();
    await demo?.stop();
  });

  /** Starts `mcp-tasks <args>` in a fresh pane; the shell prints `EXIT:<code>` when it ends. */
  const start = async (args: string): Promise<TmuxSession> => {
    tmux = await TmuxSession.open();
    tmux.run(`node ${CLI_MAIN} ${args}; echo EXIT:$?`);
    return tmux;
  };

  it('call shows a progress bar that advances, then the result', async () => {
    // A second a step: even a slow, loaded machine draws the frames in between.
    const pane = await start(`call ${demo.url} export_project --arg project=demo --arg files=5 --arg delayMs=1000`);
    await pane.waitFor(TASK_ID);
    // An intermediate frame, then the last one.
    await pane.waitFor(barFrame('[1-4]', 5, 'exporting demo'));
    await pane.waitFor(/^EXIT:0$/m, 60_000);
    const screen = pane.screen();
    expect(screen).toMatch(barFrame('5', 5, 'exporting demo'));
    expect(screen).toMatch(/✔ task \S{24}: completed: exporting demo \(5\/5\)/);
    expect(screen).toMatch(/^Exported 5 of 5 files of demo\.$/m);
  }, 90_000);

  it('asks a question in the terminal: a choice, a text and a yes/no, answered by typed keys', async () => {
    const pane = await start(`call ${demo.url} publish_release --arg version=1.2.0`);
    await pane.waitFor(/How should 1\.2\.0 be published\?/);
    await pane.waitFor(/\? Channel[\s\S]*❯ stable\s+beta\s+nightly/);
    pane.keys('Down');
    await pane.waitFor(/❯ beta/);
    pane.keys('Enter');
    await pane.waitFor(/✔ Channel beta/);
    await pane.waitFor(/\? Release notes/);
    pane.type('first cut');
    pane.keys('Enter');
    await pane.waitFor(/\? Notify subscribers \(y\/N\)/);
    pane.type('y');
    pane.keys('Enter');
    await pane.waitFor(/✔ Notify subscribers Yes/);
    await pane.waitFor(/^EXIT:0$/m, 60_000);
    const screen = pane.screen();
    expect(screen).toMatch(/^Published 1\.2\.0 to beta; subscribers notified\. Notes: first cut\.$/m);
    expect(screen).toMatch(/✔ task \S{24}: completed: announcing \(3\/3\)/);
  }, 90_000);

  it('a spinner shows a task without counts; Ctrl-C cancels it on the server and exits 130', async () => {
    const pane = await start(`call ${demo.url} slow_compute --arg seconds=120`);
    const [, taskId] = await pane.waitFor(TASK_ID);
    await pane.waitFor(/^\S working$/m);
    pane.keys('C-c');
    await pane.waitFor(/^EXIT:130$/m, 60_000);
    expect(pane.screen()).toContain(`task ${taskId}: cancelled`);
    expect((await client.getTask(taskId)).status).toBe('cancelled');
  }, 90_000);

  it('Ctrl-C during a question cancels the task instead of answering it', async () => {
    const pane = await start(`call ${demo.url} deploy --arg environment=prod`);
    const [, taskId] = await pane.waitFor(TASK_ID);
    await pane.waitFor(/\? Go ahead with the deployment \(Y\/n\)/);
    pane.keys('C-c');
    await pane.waitFor(/^EXIT:130$/m, 60_000);
    expect(pane.screen()).toContain(`task ${taskId}: cancelled`);
    expect((await client.getTask(taskId)).status).toBe('cancelled');
  }, 90_000);

  it('watch draws the progress bar of a task started elsewhere; Ctrl-C there only stops watching', async () => {
    // Long enough that the watcher (started after the task) still sees it run.
    const call = await client.callTool('export_project', { project: 'seen', files: 6, delayMs: 1200 });
    if (call.kind !== 'task') throw new Error('expected a task');
    const pane = await start(`watch ${demo.url} ${call.task.taskId}`);
    await pane.waitFor(barFrame('[1-5]', 6, 'exporting seen'));
    await pane.waitFor(/^EXIT:0$/m, 60_000);
    expect(pane.screen()).toMatch(/^Exported 6 of 6 files of seen\.$/m);
    tmux!.kill();

    const slow = await client.callTool('slow_compute', { seconds: 60 });
    if (slow.kind !== 'task') throw new Error('expected a task');
    const watching = await start(`watch ${demo.url} ${slow.task.taskId}`);
    await watching.waitFor(/ working$/m);
    watching.keys('C-c');
    await watching.waitFor(/^EXIT:130$/m, 60_000);
    expect(watching.screen()).toContain(`stopped watching task ${slow.task.taskId}; it keeps running`);
    expect((await client.getTask(slow.task.taskId)).status).toBe('working');
    await client.cancelTask(slow.task.taskId);
  }, 120_000);
});
