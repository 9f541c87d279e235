import { Injectable } from '@nestjs/common';
import { McpTool, RequiredScopes, type ToolContext } from '@mcp-tasks/nestjs';
import { DeployDto } from './approval.dto.js';

/** A job that needs a person's approval first: as a task it waits in `input_required`. */
@Injectable()
export class ApprovalService {
  @McpTool({
    name: 'deploy',
    description: 'Deploys to an environment after asking the user to approve.',
    input: DeployDto,
    task: 'required',
  })
  @RequiredScopes('deploy')
  async deploy(args: DeployDto, ctx: ToolContext): Promise<string> {
    const answer = await ctx.elicit('approve', `Deploy to ${args.environment}?`, {
      type: 'object',
      properties: { approve: { type: 'boolean', description: 'Go ahead with the deployment' } },
      required: ['approve'],
    });
    if (answer.action !== 'accept' || answer.content?.approve !== true)
      return `Deployment to ${args.environment} was not approved.`;
    return `Deployed to ${args.environment}.`;
  }

  @McpTool({ name: 'word_count', description: 'Counts the words of a text (always synchronous).' })
  wordCount(args: { text?: string }): string {
    const words = String(args.text ?? '')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return `${words.length} words`;
  }
}
