/** Where the CLI writes, and what kind of terminal it has. */
export interface CliIo {
  /** stdout and stderr are both terminals: live progress bar and spinner; otherwise plain lines only. */
  tty: boolean;
  /** Questions can be asked: a terminal on stdin too. */
  interactive: boolean;
  /** Terminal width (80 when unknown). */
  columns: number;
  /** A line of the command's output (the tool result, a listing) on stdout. */
  out(line: string): void;
  /** A line about what is going on (task status, notes, errors) on stderr. */
  err(line: string): void;
}

/** The process's own streams. */
export function processIo(): CliIo {
  const tty = Boolean(process.stdout.isTTY && process.stderr.isTTY);
  return {
    tty,
    interactive: tty && Boolean(process.stdin.isTTY),
    columns: process.stdout.columns || 80,
    out: (line) => void process.stdout.write(`${line}\n`),
    err: (line) => void process.stderr.write(`${line}\n`),
  };
}
