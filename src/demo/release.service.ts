import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';
import { PublishReleaseDto } from './release.dto.js';

/** One form with a choice, a text and a yes/no — what a client has to render for a question. */
const RELEASE_FORM = {
  type: 'object',
  properties: {
    channel: { type: 'string', title: 'Channel', enum: ['stable', 'beta', 'nightly'], default: 'stable' },
    notes: { type: 'string', title: 'Release notes', maxLength: 200 },
    notify: { type: 'boolean', title: 'Notify subscribers', default: false },
  },
  required: ['channel', 'notify'],
};

const STEPS = ['tagging', 'uploading', 'announcing'];

/** A release that asks how to publish, then reports each step. */
@Injectable()
export class ReleaseService {
  @McpTool({
    name: 'publish_release',
    description: 'Asks for the channel, notes and whether to notify, then publishes a release step by step.',
    input: PublishReleaseDto,
    task: 'optional',
  })
  async publish(args: PublishReleaseDto, ctx: ToolContext): Promise<string> {
    const answer = await ctx.elicit('release', `How should ${args.version} be published?`, RELEASE_FORM);
    if (answer.action !== 'accept') return `Release ${args.version} was not published.`;
    const { channel, notes, notify } = answer.content ?? {};
    for (const [i, step] of STEPS.entries()) {
      if (ctx.cancelled) return `Release ${args.version} stopped while ${step}.`;
      await ctx.progress(i + 1, STEPS.length, step);
      await sleep(300, undefined, { signal: ctx.signal }).catch(() => undefined);
    }
    const said = typeof notes === 'string' && notes ? ` Notes: ${notes}.` : '';
    const notified = notify === true ? 'notified' : 'not notified';
    return `Published ${args.version} to ${String(channel)}; subscribers ${notified}.${said}`;
  }
}
