import { authFailureIn } from '../auth-failure.lookup.js';
import { ForbiddenError } from '../forbidden.error.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './cli.constants.js';
import { UsageError } from './usage.error.js';
import { TokenFlagError } from './token-flag.error.js';

/** Prints why a command failed (`error: …` on stderr) and returns its exit code. */
export function reportError(error: unknown, io: CliIo): number {
  const refusal = authFailureIn(error);
  if (refusal) {
    const forbidden = refusal instanceof ForbiddenError;
    io.err(`error: ${forbidden ? 'forbidden' : 'unauthorized'}: ${refusal.description}`);
    return forbidden ? ExitCode.forbidden : ExitCode.unauthorized;
  }
  const tokenFlag = causes(error).find((e) => e instanceof TokenFlagError);
  io.err(`error: ${tokenFlag ? tokenFlag.message : describe(error)}`);
  return error instanceof UsageError ? ExitCode.usage : ExitCode.failed;
}

/** The error and its causes, outermost first. */
function causes(error: unknown): unknown[] {
  const chain = [error];
  while (chain.length < 6 && chain.at(-1) instanceof Error && (chain.at(-1) as Error).cause)
    chain.push((chain.at(-1) as Error).cause);
  return chain;
}

/** An error's message, with its JSON-RPC code and its root cause (e.g. `ECONNREFUSED` under "fetch failed"). */
function describe(error: unknown): string {
  const e = error as { message?: string; code?: unknown };
  const root = causes(error).at(-1) as { code?: unknown; message?: string };
  const cause = typeof root.code === 'string' ? root.code : root.message;
  const code = typeof e.code === 'number' ? `${e.code} ` : '';
  const message = e.message ?? String(error);
  return `${code}${message}${root !== error && cause && !message.includes(cause) ? ` (${cause})` : ''}`;
}
