import { Injectable } from '@nestjs/common';
import { imageContent, McpCompletion, McpPrompt, resourceContent, type ToolContext } from '@mcp-tasks/nestjs';
import { EmbeddedResourcePromptDto, PromptWithArgumentsDto } from './prompt-args.dto.js';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** What `test_prompt_with_arguments`'s `arg1` completes from. */
const ARG1_VALUES = ['paris', 'park', 'party', 'test', 'testing', 'tested'];
const CONTEXT_SCHEMA = { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] };

/** The prompts (and the completer) the conformance suite's prompts-*, completion and MRTR scenarios ask for. */
@Injectable()
export class PromptFixtures {
  @McpPrompt({ name: 'test_simple_prompt', description: 'A prompt without arguments.' })
  simple(): string {
    return 'This is a simple prompt for testing.';
  }

  @McpPrompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments.',
    args: PromptWithArgumentsDto,
  })
  withArguments({ arg1, arg2 }: PromptWithArgumentsDto): string {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @McpPrompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding a text resource.',
    args: EmbeddedResourcePromptDto,
  })
  withEmbeddedResource({ resourceUri }: EmbeddedResourcePromptDto) {
    return [
      resourceContent(resourceUri, 'Embedded resource content for testing.', 'text/plain'),
      'Please process the embedded resource above.',
    ];
  }

  @McpPrompt({ name: 'test_prompt_with_image', description: 'A prompt with an image.' })
  withImage() {
    return [imageContent(PNG, 'image/png'), 'Please analyze the image above.'];
  }

  @McpPrompt({ name: 'test_input_required_result_prompt', description: 'Asks the user for context first.' })
  async inputRequired(_args: object, ctx: ToolContext): Promise<string> {
    const answer = await ctx.elicit('user_context', 'What context should the prompt use?', CONTEXT_SCHEMA);
    return `Use this context: ${String(answer.content?.context)}`;
  }

  @McpCompletion({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  arg1(value: string): string[] {
    return ARG1_VALUES.filter((v) => v.startsWith(value));
  }
}
