import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, ToolError, type ToolContext } from '@mcp-tasks/nestjs';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A 10 ms, 8 kHz, 8-bit mono WAV of silence. */
const WAV = (() => {
  const samples = 80;
  const b = Buffer.alloc(44 + samples, 128);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples, 40);
  return b.toString('base64');
})();

/**
 * Content fixtures of the conformance suite. `test_simple_text` must be the first tool listed: the
 * header-validation scenario calls the first tool with empty arguments.
 */
@Injectable()
export class ContentFixtures {
  @McpTool({ name: 'test_simple_text', description: 'Returns a plain text block.' })
  simpleText(): string {
    return 'This is a simple text response for testing.';
  }

  @McpTool({ name: 'test_image_content', description: 'Returns an image block (PNG).' })
  image() {
    return [{ type: 'image', data: PNG, mimeType: 'image/png' }];
  }

  @McpTool({ name: 'test_audio_content', description: 'Returns an audio block (WAV).' })
  audio() {
    return [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }];
  }

  @McpTool({ name: 'test_embedded_resource', description: 'Returns an embedded text resource.' })
  embedded() {
    return [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ];
  }

  @McpTool({ name: 'test_multiple_content_types', description: 'Returns text, image and resource blocks.' })
  multiple() {
    return [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ];
  }

  @McpTool({ name: 'test_error_handling', description: 'Always fails with a tool error (isError).' })
  error(): never {
    throw new ToolError('This tool intentionally returns an error for testing');
  }

  @McpTool({ name: 'test_tool_with_progress', description: 'Reports progress three times, then answers.' })
  async progress(_args: object, ctx: ToolContext): Promise<string> {
    for (let i = 0; i <= 100; i += 50) {
      await ctx.progress(i, 100, `step ${i / 50 + 1}`);
      await sleep(20);
    }
    return 'Progress complete';
  }
}
