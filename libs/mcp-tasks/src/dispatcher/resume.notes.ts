import { RpcCode } from '../mcp-tasks.constants.js';
import type { TaskError } from '../protocol/wire.interface.js';

/** What a takeover of a resumable task says: the status message of the new attempt, and the error of a bound hit. */
export const RESUME_NOTES = {
  statusMessage: (attempt: number, maxAttempts: number): string =>
    `Resumed after its instance stopped (attempt ${attempt} of ${maxAttempts})`,
  exhausted: (attempts: number): TaskError => ({
    code: RpcCode.InternalError,
    message:
      `The task was interrupted: the instance running it stopped, and it gave up after ${attempts} ` +
      `attempt${attempts === 1 ? '' : 's'} (the tool's maxAttempts)`,
  }),
};

/** A task of a tool this server does not serve (removed, or renamed, by a deploy) cannot run again. */
export const toolGone = (tool: string): TaskError => ({
  code: RpcCode.InternalError,
  message: `The task was interrupted and cannot resume: the instance that took it over has no tool "${tool}"`,
});
