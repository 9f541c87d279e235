/** What a completer returned cannot be sent as completion values; the message says why (for the server log). */
export class InvalidCompletion extends Error {
  override readonly name = 'InvalidCompletion';
}
