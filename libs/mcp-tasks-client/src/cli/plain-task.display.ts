import type { McpTask } from '../mcp-task.interface.js';
import type { CliIo } from './cli-io.js';
import { describeState, type TaskDisplay } from './task-display.interface.js';

/** Without a terminal: one plain line (no escape codes) per state, on stderr. */
export class PlainTaskDisplay implements TaskDisplay {
  private taskId = '';

  constructor(private readonly io: CliIo) {}

  start(task: McpTask, label: string): void {
    this.taskId = task.taskId;
    this.io.err(`task ${task.taskId} (${label})`);
  }

  update(task: McpTask): void {
    this.io.err(`task ${this.taskId}: ${describeState(task)}`);
  }

  pause(): void {}

  resume(): void {}

  note(line: string): void {
    this.io.err(line);
  }

  stop(): void {}
}
