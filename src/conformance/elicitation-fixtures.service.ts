import { Injectable } from '@nestjs/common';
import { McpTool, type ElicitResult, type ToolContext } from '@mcp-tasks/nestjs';
import { MessageDto, PromptDto } from './question.dto.js';

/** SEP-1034: a default for each primitive kind the elicitation schema allows. */
const DEFAULTS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Your name', default: 'John Doe' },
    age: { type: 'integer', description: 'Your age', default: 30 },
    score: { type: 'number', description: 'Your score', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verified?', default: true },
  },
};

const titled = (prefix: string, titles: string[]) => titles.map((title, i) => ({ const: `${prefix}${i + 1}`, title }));

/** SEP-1330: the five enum forms (untitled, titled, legacy enumNames; single and multiple choice). */
const ENUMS_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: { type: 'string', oneOf: titled('value', ['First Option', 'Second Option', 'Third Option']) },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: { anyOf: titled('value', ['First Choice', 'Second Choice', 'Third Choice']) },
    },
  },
};

const USER_SCHEMA = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" },
  },
  required: ['username', 'email'],
};

const done = (r: ElicitResult) =>
  `Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;

/** Fixtures of the 2025-era scenarios where a plain tools/call asks the client (sampling, elicitation). */
@Injectable()
export class ElicitationFixtures {
  @McpTool({ name: 'test_sampling', description: "Asks the client's model the given prompt.", input: PromptDto })
  async sampling(args: PromptDto, ctx: ToolContext): Promise<string> {
    const messages = [{ role: 'user', content: { type: 'text', text: args.prompt } }];
    const r = await ctx.sample('prompt', { messages, maxTokens: 100 });
    const content = r.content as { text?: unknown } | undefined;
    return `LLM response: ${typeof content?.text === 'string' ? content.text : ''}`;
  }

  @McpTool({ name: 'test_elicitation', description: 'Asks the user for a username and an email.', input: MessageDto })
  async elicitation(args: MessageDto, ctx: ToolContext): Promise<string> {
    const r = await ctx.elicit('user', args.message, USER_SCHEMA);
    return `User response: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;
  }

  @McpTool({ name: 'test_elicitation_sep1034_defaults', description: 'Asks with a default for every field.' })
  async defaults(_a: object, ctx: ToolContext): Promise<string> {
    return done(await ctx.elicit('defaults', 'Confirm or change these values.', DEFAULTS_SCHEMA));
  }

  @McpTool({ name: 'test_elicitation_sep1330_enums', description: 'Asks with each form of enum field.' })
  async enums(_a: object, ctx: ToolContext): Promise<string> {
    return done(await ctx.elicit('enums', 'Pick your options.', ENUMS_SCHEMA));
  }
}
