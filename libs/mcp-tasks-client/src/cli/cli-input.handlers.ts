import type { McpInputHandlers } from '../input-handlers.interface.js';
import { CLI_NAME } from './cli.constants.js';
import { askForm } from './elicitation.prompter.js';
import type { Interrupt } from './interrupt.js';
import type { TaskDisplay } from './task-display.interface.js';

/** The flags that answer questions a person cannot type. */
export interface InputFlags {
  /** `--sampling-text`: every `sampling/createMessage` gets this text as the model's answer. */
  samplingText?: string;
  /** `--sampling-model` [`mcp-tasks-cli`]: the model name given with it. */
  samplingModel?: string;
  /** `--root <uri>` (repeatable): the answer to `roots/list`. */
  root?: string[];
}

/**
 * The CLI's answers: elicitation forms asked in the terminal when `ask` (a person is there), sampling and
 * roots only from flags. Each one present declares its capability, so the server asks for nothing else.
 */
export function cliInputHandlers(
  flags: InputFlags,
  ui: { ask: boolean; display: TaskDisplay; interrupt: Interrupt },
): McpInputHandlers {
  const { ask, display, interrupt } = ui;
  const handlers: McpInputHandlers = {};
  if (ask)
    handlers.elicitation = async (params, ctx) => {
      display.pause();
      try {
        return await askForm(params, ctx.signal);
      } catch (error) {
        if ((error as Error).name !== 'ExitPromptError') throw error;
        // Ctrl-C inside a prompt: cancel the task rather than answer, and leave the question unanswered.
        interrupt.trigger();
        return await new Promise<never>((_, reject) => ctx.signal?.addEventListener('abort', () => reject(error)));
      } finally {
        display.resume();
      }
    };
  const { samplingText, samplingModel = CLI_NAME, root = [] } = flags;
  if (samplingText !== undefined)
    handlers.sampling = (_params, { key }) => {
      display.note(`answered sampling request "${key}" with --sampling-text`);
      return { model: samplingModel, role: 'assistant', content: { type: 'text', text: samplingText } };
    };
  if (root.length)
    handlers.roots = ({ key }) => {
      display.note(`answered roots request "${key}" with ${root.length} --root`);
      return { roots: root.map((uri) => ({ uri })) };
    };
  return handlers;
}
