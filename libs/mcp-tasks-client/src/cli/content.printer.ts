import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import { contentLines } from './result.printer.js';

/** A resource's contents as lines: text as it is, a blob as `[blob <mimeType>, <n> bytes]`. */
export function resourceLines(result: ReadResourceResult): string[] {
  return result.contents.map((content) => {
    if ('text' in content && typeof content.text === 'string') return content.text;
    const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
    return `[blob ${content.mimeType ?? ''}, ${Buffer.from(blob, 'base64').length} bytes]`;
  });
}

/** A prompt's messages as lines, each message's first line after its role (`user: …`); other blocks described. */
export function messageLines(result: GetPromptResult): string[] {
  return result.messages.flatMap((message) => {
    const [first = '', ...rest] = contentLines({ content: [message.content] } as CallToolResult);
    return [`${message.role}: ${first}`, ...rest];
  });
}
