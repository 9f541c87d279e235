import type { TaskError } from '../protocol/wire.interface.js';

/**
 * A 2025-11-25 client answers a task's input request with a JSON-RPC error, or with a result of the wrong shape: kept
 * among the task's answers under this key (no valid elicitation, sampling or roots result has it), so the waiting
 * tool learns of it instead of waiting on. Storage only: `tasks/get` never shows answers.
 */
const INPUT_ERROR_KEY = 'io.mcp-tasks/input-error';

export const inputError = (error: TaskError): Record<string, TaskError> => ({ [INPUT_ERROR_KEY]: error });

/** The error an answer carries, if it is one. */
export function inputErrorOf(answer: unknown): TaskError | undefined {
  if (!answer || typeof answer !== 'object' || !Object.hasOwn(answer, INPUT_ERROR_KEY)) return undefined;
  return (answer as Record<string, TaskError>)[INPUT_ERROR_KEY];
}
