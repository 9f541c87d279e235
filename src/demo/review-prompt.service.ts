import { Injectable } from '@nestjs/common';
import { McpCompletion, McpPrompt, type CompletionContext, type PromptMessage } from '@mcp-tasks/nestjs';
import { FOCUSES, LANGUAGES, ReviewDto } from './review.dto.js';

/** What each language's reviewers care about beyond the chosen focus (narrows `focus` completions). */
const USUAL_FOCUS: Record<string, string[]> = { rust: ['performance', 'security'], python: ['tests', 'readability'] };

/**
 * A prompt with completions: `code_review` turns code into a review request; clients complete its `language` and
 * `focus` arguments as the user types (`completion/complete`).
 */
@Injectable()
export class ReviewPromptService {
  @McpPrompt({
    name: 'code_review',
    title: 'Code review',
    description: 'Asks the model to review code in a given language, with a focus.',
    args: ReviewDto,
  })
  review({ code, language, focus = 'correctness' }: ReviewDto): PromptMessage[] {
    const ask = `Review this ${language} code, ${focus} first. Point at lines, suggest fixes.\n\n${code}`;
    return [
      { role: 'user', content: { type: 'text', text: ask } },
      { role: 'assistant', content: { type: 'text', text: `I'll review it for ${focus} first.` } },
    ];
  }

  @McpCompletion({ prompt: 'code_review', argument: 'language' })
  language(value: string): string[] {
    return LANGUAGES.filter((l) => l.startsWith(value.toLowerCase()));
  }

  @McpCompletion({ prompt: 'code_review', argument: 'focus' })
  focus(value: string, context: CompletionContext): string[] {
    const matching = FOCUSES.filter((f) => f.startsWith(value.toLowerCase()));
    // The language chosen so far puts its usual concerns first.
    const usual = USUAL_FOCUS[context.arguments.language ?? ''] ?? [];
    return [...matching.filter((f) => usual.includes(f)), ...matching.filter((f) => !usual.includes(f))];
  }
}
