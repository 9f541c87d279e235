/** A command-line mistake: reported without a stack and exits with `ExitCode.usage`. */
export class UsageError extends Error {
  override name = 'UsageError';
}
