/** What a tool returned cannot be sent as its result; the message says why. */
export class InvalidToolResult extends Error {
  override readonly name = 'InvalidToolResult';
}
