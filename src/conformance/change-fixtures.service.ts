import { Injectable } from '@nestjs/common';
import { McpPromptNotifier, McpTool } from '@mcp-tasks/nestjs';

/**
 * The hook server-stateless's sep-2575 check calls to change the prompt list while a `subscriptions/listen` with
 * `promptsListChanged` is open (the demo's prompts do not change; announcing is what the check observes).
 */
@Injectable()
export class ChangeFixtures {
  constructor(private readonly prompts: McpPromptNotifier) {}

  @McpTool({ name: 'test_trigger_prompt_change', description: 'Announces that the prompt list changed.' })
  triggerPromptChange(): string {
    this.prompts.listChanged();
    return 'Prompt list change announced';
  }
}
