import { exec } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { TokenProvider } from '../token-provider.interface.js';
import { TokenFlagError } from './token-flag.error.js';

const run = promisify(exec);

/** The flags that give the bearer token. */
export interface TokenFlags {
  /** `--token` (or `MCP_TOKEN`): a fixed token. */
  token?: string;
  /** `--token-cmd`: a shell command that prints a token; run for each request. */
  tokenCmd?: string;
  /** `--token-file`: a file that holds a token; read for each request. */
  tokenFile?: string;
}

/**
 * The token the flags give: a provider for `--token-cmd` / `--token-file` (they win over `--token` and
 * `MCP_TOKEN`), so a long task is followed with fresh tokens; else the fixed one (an empty one is none).
 */
export function tokenFromFlags(flags: TokenFlags): string | TokenProvider | undefined {
  const { tokenCmd, tokenFile } = flags;
  if (tokenCmd !== undefined) return coalesced(() => fromCommand(tokenCmd));
  if (tokenFile !== undefined) return coalesced(() => fromFile(tokenFile));
  return flags.token || undefined;
}

async function fromCommand(command: string): Promise<string> {
  let stdout: string;
  try {
    ({ stdout } = await run(command, { encoding: 'utf8', windowsHide: true }));
  } catch (error) {
    const e = error as { code?: unknown; stderr?: string; message: string };
    const why = e.stderr?.trim().split('\n').at(-1) || e.message;
    throw new TokenFlagError(`--token-cmd failed${typeof e.code === 'number' ? ` (exit ${e.code})` : ''}: ${why}`);
  }
  const token = stdout.trim();
  if (!token) throw new TokenFlagError('--token-cmd printed no token');
  return token;
}

async function fromFile(path: string): Promise<string> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new TokenFlagError(`--token-file: cannot read ${path} (${error.code ?? error.message})`);
  });
  const token = text.trim();
  if (!token) throw new TokenFlagError(`--token-file: ${path} holds no token`);
  return token;
}

/** Requests that ask while the command runs (a poll and a listen stream) share its answer. */
function coalesced(read: () => Promise<string>): TokenProvider {
  let pending: Promise<string> | undefined;
  return () => (pending ??= read().finally(() => (pending = undefined)));
}
