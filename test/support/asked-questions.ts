import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A question the client was asked: its message, and the task it came for (none during a plain call). */
export interface AskedQuestion {
  message: string;
  taskId?: string;
}

/** Accepts every elicitation/create with `answer(message)`; the questions, in the order asked. */
export function answerQuestions(client: Client, answer: (message: string) => Record<string, string | boolean>) {
  const asked: AskedQuestion[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
    asked.push({ message: req.params.message, taskId: extra.taskId });
    return { action: 'accept', content: answer(req.params.message) };
  });
  return asked;
}
