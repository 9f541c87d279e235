import { execFileSync } from 'node:child_process';
import { ROOT } from './cli-process.js';

/**
 * Makes sure `tmux` is installed: installs it with apt-get when missing (as root, as on a fresh CI machine),
 * and throws when that is not possible — the terminal tests never skip silently.
 */
export function ensureTmux(): void {
  if (hasTmux()) return;
  if (process.getuid?.() !== 0)
    throw new Error('tmux is missing and only root may install it: run `apt-get install -y tmux` first');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { env, stdio: 'ignore', timeout: 300_000 });
  execFileSync('apt-get', ['install', '-y', 'tmux'], { env, stdio: 'ignore', timeout: 300_000 });
  if (!hasTmux()) throw new Error('apt-get install -y tmux ran, but tmux is still not usable');
}

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A shell in a detached tmux session on a private server socket (so nothing else's tmux is touched): type
 * into it as a person would and read its screen as rendered.
 */
export class TmuxSession {
  private readonly socket = `mcp-cli-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  private constructor(width: number, height: number) {
    this.tmux('new-session', '-d', '-s', 'main', '-x', String(width), '-y', String(height), '-c', ROOT, 'sh');
  }

  /** A fresh pane, `width` × `height`, with a shell waiting at a plain `$` prompt on a clear screen. */
  static async open(width = 120, height = 40): Promise<TmuxSession> {
    const session = new TmuxSession(width, height);
    session.run(`PS1='$ '; clear`);
    // Typing before the screen is cleared would lose the echo of the command line.
    await session.waitFor(/^\$ ?$/m, 30_000);
    return session;
  }

  /** Types a command line and presses Enter. */
  run(line: string): void {
    this.type(line);
    this.keys('Enter');
  }

  /** Types text literally. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** Presses keys by tmux name: `Enter`, `Down`, `C-c`, `y`. */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  /** The screen as a person sees it (wrapped lines joined), with the scrollback. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-1000', '-t', 'main');
  }

  /** Waits until the screen matches; rejects after `ms` with the screen. Polls; never a fixed sleep. */
  async waitFor(pattern: RegExp, ms = 30_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + ms;
    for (;;) {
      const screen = this.screen();
      const match = pattern.exec(screen);
      if (match) return match;
      if (Date.now() > deadline) throw new Error(`the screen did not show ${pattern} in ${ms} ms:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Ends this session's tmux server (its socket only). */
  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', timeout: 10_000 });
  }
}
