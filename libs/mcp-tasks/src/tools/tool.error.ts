import { IntrinsicException } from '@nestjs/common';

/**
 * Thrown by a tool to report a failure the model should see: the call (or task) ends `completed`
 * with `isError: true` and this message as its text. Any other exception is an internal error whose
 * text never leaves the server.
 * @publicApi
 */
export class ToolError extends IntrinsicException {
  constructor(
    message: string,
    /** Optional structured details, sent as `structuredContent`. */
    readonly structuredContent?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
