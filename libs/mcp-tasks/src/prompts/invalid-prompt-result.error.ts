/** What a prompt method returned cannot be sent as its messages; the message says why (for the server log). */
export class InvalidPromptResult extends Error {
  override readonly name = 'InvalidPromptResult';
}
