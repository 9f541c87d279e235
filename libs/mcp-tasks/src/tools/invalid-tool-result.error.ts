/** What a tool returned cannot be sent as its result; the message says why. */
export class InvalidToolResult extends Error {
  override readonly name = 'InvalidToolResult';

  constructor(
    message: string,
    /** What would have been sent, when it got that far (serialized: no `@Exclude()`d fields), for the log. */
    readonly serialized?: unknown,
  ) {
    super(message);
  }
}
