import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { rpc, type Target } from './http.js';
import { freePort } from '../../support/free-port.js';

/** The built demo (`npm run build`) and the preload that lets instances share one public address. */
const MAIN = fileURLToPath(new URL('../../../src/main.js', import.meta.url));
const LOG_DIR = join(process.cwd(), '.tmp', 'reliability');
const LISTEN_AS = fileURLToPath(new URL('./listen-as.js', import.meta.url));

export interface DemoOptions {
  /** Shown in messages. */
  name: string;
  env?: Record<string, string | undefined>;
  /** `--expose-gc`, so `rel_stats { gc: true }` measures live memory. */
  exposeGc?: boolean;
  /** Listen here while `PORT` (and so the auth resource) names the shared, public port. */
  listenPort?: number;
  port?: number;
}

/** The demo app as a child process: the real `node dist/src/main.js`, killable, its stderr kept. */
export class DemoProcess implements Target {
  readonly host = '127.0.0.1';
  stderr = '';
  exit?: { code: number | null; signal: NodeJS.Signals | null };

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly publicPort: number,
    readonly child: ChildProcess,
  ) {
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      this.stderr = (this.stderr + d).slice(-4_000_000);
    });
    child.stdout!.resume();
    child.once('exit', (code, signal) => {
      this.exit = { code, signal };
      this.saveLog();
    });
  }

  static async start(o: DemoOptions): Promise<DemoProcess> {
    const publicPort = o.port ?? (await freePort());
    const port = o.listenPort ?? publicPort;
    const args = [...(o.exposeGc ? ['--expose-gc'] : []), ...(o.listenPort ? ['--import', LISTEN_AS] : []), MAIN];
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        NO_COLOR: '1',
        HOST: '127.0.0.1',
        PORT: String(publicPort),
        MCP_RELIABILITY: '1',
        ...(o.listenPort ? { REL_LISTEN_PORT: String(port) } : {}),
        ...o.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const demo = new DemoProcess(o.name, port, publicPort, child);
    // An interrupted run leaves no instance behind.
    const reap = () => demo.kill('SIGKILL');
    process.once('exit', reap);
    child.once('exit', () => process.removeListener('exit', reap));
    await demo.ready();
    return demo;
  }

  get alive(): boolean {
    return !this.exit;
  }

  /** Lines the process wrote to stderr that name an unhandled rejection or exception. */
  get unhandled(): string[] {
    return this.stderr.split('\n').filter((l) => /unhandled|uncaught/i.test(l));
  }

  /** Error-level log lines (Nest prints them to stderr). */
  get errorLines(): string[] {
    return this.stderr.split('\n').filter((l) => /\bERROR\b/.test(l));
  }

  /** Resident set size from /proc, in bytes. */
  rss(): number {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  }

  /** `process.memoryUsage()` inside the process, after a full GC (with `exposeGc`). */
  async memory(): Promise<NodeJS.MemoryUsage> {
    const r = await rpc(this, undefined, 'tools/call', { name: 'rel_stats', arguments: { gc: true } });
    const text = r.json?.result?.content?.[0]?.text;
    if (!text) throw new Error(`${this.name}: rel_stats answered ${r.status} ${r.text.slice(0, 200)}`);
    return JSON.parse(text).memory;
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.alive) this.child.kill(signal);
  }

  /** Writes what the process printed on stderr to `.tmp/reliability/<name>-<pid>.stderr.log`. */
  saveLog(): void {
    mkdirSync(LOG_DIR, { recursive: true });
    writeFileSync(join(LOG_DIR, `${this.name}-${this.child.pid}.stderr.log`), this.stderr);
  }

  /** SIGTERM (graceful: shutdown hooks), SIGKILL after `ms`. */
  async stop(ms = 15_000): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const t = setTimeout(() => this.kill('SIGKILL'), ms);
    await exited;
    clearTimeout(t);
  }

  private async ready(): Promise<void> {
    for (let i = 0; i < 600 && this.alive; i++) {
      const r = await rpc(this, undefined, 'server/discover', {}, { timeoutMs: 2000 });
      if (r.status) return;
      await sleep(50);
    }
    throw new Error(`demo ${this.name} did not start (${JSON.stringify(this.exit)}): ${this.stderr.slice(-2000)}`);
  }
}
