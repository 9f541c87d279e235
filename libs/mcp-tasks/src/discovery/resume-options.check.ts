import type { McpToolOptions } from '../decorators/mcp-tool.decorator.js';

/** Attempts a resumable task may have in all when the tool does not say (`maxAttempts`). */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** What a discovered tool keeps of `resume` / `maxAttempts`. */
export interface ToolResume {
  maxAttempts: number;
}

/**
 * The tool's `resume` settings (`undefined`: it does not resume), or a startup error naming the option: `resume` on a
 * tool that never runs as a task, a `maxAttempts` that is not an integer ≥ 1, or `maxAttempts` without `resume`.
 */
export function resumeOf(options: McpToolOptions, where: string): ToolResume | undefined {
  const { resume, maxAttempts, task } = options;
  const fail = (why: string): never => {
    throw new Error(`McpTasksModule: @McpTool on ${where}: ${why}`);
  };
  if (resume !== undefined && typeof resume !== 'boolean') fail(`resume must be true or false`);
  if (maxAttempts !== undefined && !(Number.isInteger(maxAttempts) && maxAttempts >= 1))
    fail(`maxAttempts must be an integer ≥ 1 (attempts in all, the first included); got ${String(maxAttempts)}`);
  if (!resume) {
    if (maxAttempts !== undefined) fail('maxAttempts counts the attempts of a resumable task: add resume: true');
    return undefined;
  }
  if (task === undefined || task === 'sync')
    fail(
      "resume: true needs a tool that runs as a task (task: 'optional', 'required', true or a function); this one " +
        "always runs in the request (task: 'sync', the default)",
    );
  return { maxAttempts: maxAttempts ?? DEFAULT_MAX_ATTEMPTS };
}
