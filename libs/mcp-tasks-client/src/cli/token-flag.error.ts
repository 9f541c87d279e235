/** `--token-cmd` or `--token-file` could not give a token: the message names the flag and what went wrong. */
export class TokenFlagError extends Error {
  override name = 'TokenFlagError';
}
