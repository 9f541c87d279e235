import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { stripVTControlCharacters } from 'node:util';
import { freePort } from './free-port.js';

export interface AppProcessOptions {
  /** The compiled script node runs, e.g. `dist/src/main.js` (relative to `cwd`). */
  script: string;
  /** Node flags ahead of the script (`--expose-gc`, `--import <preload>`). */
  nodeArgs?: string[];
  /** Added to this process's environment; `PORT` and `HOST` are set from the options. */
  env?: Record<string, string | undefined>;
  /** `PORT`: the port the app is told to listen on. Default: a free one. */
  port?: number;
  /** The port it really listens on, when a preload moves it (default `port`): readiness is checked there. */
  listenPort?: number;
  /** Default: this process's working directory. */
  cwd?: string;
  /** How long it may take to accept connections, in ms. Default 60 000. */
  readyMs?: number;
  /** Each chunk the process writes on stdout or stderr. */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
}

/**
 * An app (the demo, a fixture app, a bench contestant) as a child process on a loopback port: started, awaited
 * until its port accepts connections, and stopped. One start-up for the bench, the reliability suite, the
 * conformance runner and the e2e tests that need a real process.
 */
export class AppProcess {
  /** What the process printed last (escape codes removed), for error messages. */
  private tail = '';

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly listenPort: number,
    onOutput?: AppProcessOptions['onOutput'],
  ) {
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream]?.setEncoding('utf8').on('data', (chunk: string) => {
        this.tail = (this.tail + chunk).slice(-2000);
        onOutput?.(chunk, stream);
      });
    }
  }

  /** Starts the app and resolves once its port accepts connections; rejects with its last output if it dies first. */
  static async start(o: AppProcessOptions): Promise<AppProcess> {
    const port = o.port ?? (await freePort());
    const child = spawn(process.execPath, [...(o.nodeArgs ?? []), o.script], {
      cwd: o.cwd,
      env: { ...process.env, ...o.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const app = new AppProcess(child, port, o.listenPort ?? port, o.onOutput);
    // An interrupted run leaves no process behind.
    const reap = () => app.kill('SIGKILL');
    process.once('exit', reap);
    child.once('exit', () => process.removeListener('exit', reap));
    await app.ready(o.readyMs ?? 60_000);
    return app;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines it printed, on one line. */
  lastLines(): string {
    return stripVTControlCharacters(this.tail).trim().split('\n').slice(-3).join(' | ').slice(-600);
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.alive) this.child.kill(signal);
  }

  /** SIGTERM (graceful: the app's shutdown hooks run), then SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  private async ready(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (!this.alive) throw new Error(`exited (${this.child.exitCode ?? this.child.signalCode}): ${this.lastLines()}`);
      if (await accepts(this.listenPort)) return;
      if (Date.now() > deadline) {
        await this.stop();
        throw new Error(`not listening on ${this.listenPort} after ${ms} ms: ${this.lastLines()}`);
      }
      await sleep(100);
    }
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
