import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/** A server process started for one suite, on a loopback port, restartable on the same port and data. */
export interface ThrowawayServer {
  port: number;
  /** Kills it (SIGKILL) and deletes its files. Safe to call twice. */
  stop(): Promise<void>;
  /**
   * Stops it (SIGTERM, as a service restart does; SIGKILL with `kill: true`), waits `downMs`, starts it again on the
   * same port and files. Resolves once it accepts connections again, with when it went down and came back.
   */
  restart(options?: { downMs?: number; kill?: boolean }): Promise<{ stoppedAt: number; startedAt: number }>;
}

/** Spawns `bin args` and resolves once `port` accepts TCP connections (30 s at most). */
export async function startThrowaway(
  name: string,
  bin: string,
  args: string[],
  port: number,
  cleanup: () => void,
): Promise<ThrowawayServer> {
  let child: ChildProcess | undefined;
  let log = '';
  const start = async () => {
    log = '';
    child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    await untilListening(port, child, () => `${name} did not start: ${log}`);
  };
  const halt = async (signal: NodeJS.Signals) => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill(signal);
    });
  };
  const killNow = () => {
    child?.kill('SIGKILL');
    cleanup();
  };
  // A crashed or interrupted test run must not leave a server behind.
  process.once('exit', killNow);
  await start();
  return {
    port,
    stop: async () => {
      process.removeListener('exit', killNow);
      await halt('SIGKILL');
      cleanup();
    },
    restart: async ({ downMs = 0, kill = false } = {}) => {
      await halt(kill ? 'SIGKILL' : 'SIGTERM');
      const stoppedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
      return { stoppedAt, startedAt: Date.now() };
    },
  };
}

async function untilListening(port: number, child: ChildProcess, failure: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(failure());
    const up = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(failure());
}
