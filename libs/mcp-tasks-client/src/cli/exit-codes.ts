/** How the CLI exits; scripts can tell these apart. */
export const ExitCode = {
  /** The tool ran and its result is not an error. */
  ok: 0,
  /** A tool error (`isError`), a `failed` task, a JSON-RPC or connection error. */
  failed: 1,
  /** Bad command line (unknown command or option, bad `--args` / `--arg`). */
  usage: 2,
  /** The task ended `cancelled` (someone cancelled it). */
  cancelled: 3,
  /** Ctrl-C: `call` cancelled its task, `watch` stopped watching. */
  interrupted: 130,
} as const;

/** A command-line mistake: reported without a stack and exits with `ExitCode.usage`. */
export class UsageError extends Error {
  override name = 'UsageError';
}
