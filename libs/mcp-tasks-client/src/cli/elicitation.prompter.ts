import { checkbox, confirm, input, number, select } from '@inquirer/prompts';
import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import { formQuestions, type FormQuestion } from './elicitation-form.js';

type Answer = string | number | boolean | string[];

/**
 * Asks a form elicitation in the terminal (on stderr), one prompt per field, and accepts it with the answers;
 * an optional field left empty is left out. `signal` takes the prompt down (the question went away);
 * Ctrl-C rejects with inquirer's `ExitPromptError`.
 */
export async function askForm(params: ElicitRequestParams, signal?: AbortSignal): Promise<ElicitResult> {
  if (!('requestedSchema' in params)) return { action: 'decline' };
  process.stderr.write(`${params.message}\n`);
  const content: Record<string, Answer> = {};
  for (const question of formQuestions(params.requestedSchema)) {
    const answer = await ask(question, { output: process.stderr, signal });
    if (answer !== undefined) content[question.key] = answer;
  }
  return { action: 'accept', content };
}

async function ask(
  q: FormQuestion,
  context: { output: NodeJS.WritableStream; signal?: AbortSignal },
): Promise<Answer | undefined> {
  const message = q.message;
  switch (q.kind) {
    case 'confirm':
      return confirm({ message, default: q.default }, context);
    case 'select':
      return select({ message, choices: q.choices, default: q.default }, context);
    case 'checkbox':
      return checkbox(
        {
          message,
          choices: q.choices.map((c) => ({ ...c, checked: q.default.includes(c.value) })),
          validate: (picked) => countOk(picked.length, q.minItems, q.maxItems),
        },
        context,
      );
    case 'number':
      return (
        (await number(
          { message, default: q.default, min: q.min, max: q.max, step: q.integer ? 1 : 'any', required: q.required },
          context,
        )) ?? undefined
      );
    case 'input': {
      const text = await input(
        { message, default: q.default, required: q.required, validate: (v) => textOk(v, q) },
        context,
      );
      return text === '' && !q.required ? undefined : text;
    }
  }
}

function countOk(n: number, min = 0, max = Infinity): true | string {
  return n < min ? `Pick at least ${min}` : n > max ? `Pick at most ${max}` : true;
}

function textOk(value: string, q: Extract<FormQuestion, { kind: 'input' }>): true | string {
  if (value === '' && !q.required) return true;
  if (q.minLength !== undefined && value.length < q.minLength) return `At least ${q.minLength} characters`;
  if (q.maxLength !== undefined && value.length > q.maxLength) return `At most ${q.maxLength} characters`;
  if (q.format === 'email' && !/^[^@\s]+@[^@\s]+$/.test(value)) return 'An email address, please';
  if (q.format === 'uri' && !URL.canParse(value)) return 'A URI, please';
  if (q.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'A date (YYYY-MM-DD), please';
  if (q.format === 'date-time' && Number.isNaN(Date.parse(value))) return 'A date and time (ISO 8601), please';
  return true;
}
