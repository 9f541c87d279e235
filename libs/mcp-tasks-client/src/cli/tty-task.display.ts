import cliProgress from 'cli-progress';
import ora, { type Ora } from 'ora';
import type { McpTask } from '../mcp-task.interface.js';
import { isTerminal } from '../task-update.feed.js';
import { parseProgress } from './progress-text.parser.js';
import { describeState, type TaskDisplay } from './task-display.interface.js';

/**
 * On a terminal (stderr): a progress bar while the status message carries counts (`ctx.progress(done,
 * total)`), a spinner with the status otherwise, both taken down while a question is asked.
 */
export class TtyTaskDisplay implements TaskDisplay {
  private bar?: cliProgress.SingleBar;
  private spinner?: Ora;
  private last?: McpTask;
  private paused = false;
  private stopped = false;
  private taskId = '';

  start(task: McpTask, label: string): void {
    this.taskId = task.taskId;
    this.note(`task ${task.taskId} (${label})`);
    this.update(task);
  }

  update(task: McpTask): void {
    this.last = task;
    if (!this.paused && !this.stopped && !isTerminal(task.status)) this.render(task);
  }

  pause(): void {
    this.paused = true;
    this.takeDown();
  }

  resume(): void {
    this.paused = false;
    if (!this.stopped && this.last && !isTerminal(this.last.status)) this.render(this.last);
  }

  note(line: string): void {
    const shown = this.last && !this.paused && !this.stopped && !isTerminal(this.last.status);
    this.takeDown();
    process.stderr.write(`${line}\n`);
    if (shown) this.render(this.last!);
  }

  stop(final?: McpTask): void {
    this.stopped = true;
    // The bar's last frame stays on screen: show the counts the task ended with.
    const counts = parseProgress(final?.statusMessage);
    if (counts) this.bar?.update(counts.done, { label: counts.label });
    this.takeDown();
    if (!final) return;
    const line = `task ${this.taskId}: ${describeState(final)}`;
    const persist = ora({ stream: process.stderr, isEnabled: true });
    if (final.status === 'completed' && !final.result?.isError) persist.succeed(line);
    else if (final.status === 'cancelled') persist.warn(line);
    else persist.fail(final.error ? `${line} (${final.error.code} ${final.error.message})` : line);
  }

  private render(task: McpTask): void {
    const counts = task.status === 'working' ? parseProgress(task.statusMessage) : undefined;
    if (counts) {
      this.spinner?.stop();
      this.spinner = undefined;
      if (!this.bar) {
        this.bar = new cliProgress.SingleBar(
          { stream: process.stderr, format: ' {bar} {value}/{total} {label}', hideCursor: true, barsize: 30 },
          cliProgress.Presets.shades_classic,
        );
        this.bar.start(counts.total, counts.done, { label: counts.label });
      } else {
        this.bar.setTotal(counts.total);
        this.bar.update(counts.done, { label: counts.label });
      }
      return;
    }
    this.bar?.stop();
    this.bar = undefined;
    const text = describeState(task);
    if (this.spinner) this.spinner.text = text;
    else this.spinner = ora({ stream: process.stderr, text, isEnabled: true, discardStdin: false }).start();
  }

  /** Stops the bar (its last frame stays as a line) and clears the spinner line. */
  private takeDown(): void {
    this.bar?.stop();
    this.bar = undefined;
    this.spinner?.stop();
    this.spinner = undefined;
  }
}
