import { ExitCode } from './cli.constants.js';

/**
 * Ctrl-C: the first one aborts `signal` (the command then cancels its task or stops watching, and exits
 * with `ExitCode.interrupted`); a second one exits at once. A prompt that catches Ctrl-C itself (raw
 * mode) calls `trigger`.
 */
export class Interrupt {
  private readonly controller = new AbortController();
  private readonly onSigint = (): void => {
    if (this.controller.signal.aborted) process.exit(ExitCode.interrupted);
    this.trigger();
  };

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  arm(): this {
    process.on('SIGINT', this.onSigint);
    return this;
  }

  trigger(): void {
    this.controller.abort(new Error('Interrupted (Ctrl-C)'));
  }

  disarm(): void {
    process.off('SIGINT', this.onSigint);
  }
}
