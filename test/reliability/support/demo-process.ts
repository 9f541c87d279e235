import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rpc, type Target } from './http.js';
import { AppProcess } from '../../support/app-process.js';

/** The reliability fixture app (the demo plus `fixture-app/` tools; built by `npm run test:reliability`). */
const MAIN = fileURLToPath(new URL('../fixture-app/main.js', import.meta.url));
const LOG_DIR = join(process.cwd(), '.tmp', 'reliability');
/**
 * `MCP_JWT_SECRET` of every demo this run starts (the demo has no default secret): its auth-mode instances
 * (`MCP_AUTH=1`) accept the tokens the suite signs with it, on every instance of a cluster.
 */
export const DEMO_JWT_SECRET = randomBytes(32).toString('base64url');
/** The preload that lets instances share one public address. */
const LISTEN_AS = fileURLToPath(new URL('./listen-as.js', import.meta.url));

/** What `rel_stats` reports (see the fixture's `ProcessCensus`). */
export interface ProcessStats {
  memory: NodeJS.MemoryUsage;
  resources: Record<string, number>;
  openListens: number;
  busSubscribers: number;
}

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

/** The demo app as a child process: the real fixture app, killable, its stderr kept. */
export class DemoProcess implements Target {
  readonly host = '127.0.0.1';
  stderr = '';
  /** Its WARN lines (Nest prints them to stdout, which is not kept): a lease renewal that failed, a retried write. */
  warnings = '';
  /** The start of a stdout line not ended yet. */
  private partial = '';
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  private app?: AppProcess;

  private constructor(readonly name: string) {}

  static async start(o: DemoOptions): Promise<DemoProcess> {
    const demo = new DemoProcess(o.name);
    const listenAs = o.listenPort ? ['--import', LISTEN_AS] : [];
    try {
      demo.app = await AppProcess.start({
        script: MAIN,
        nodeArgs: [...(o.exposeGc ? ['--expose-gc'] : []), ...listenAs],
        env: {
          NO_COLOR: '1',
          MCP_JWT_SECRET: DEMO_JWT_SECRET,
          ...(o.listenPort ? { REL_LISTEN_PORT: String(o.listenPort) } : {}),
          ...o.env,
        },
        port: o.port,
        listenPort: o.listenPort,
        onOutput: (chunk, stream) => {
          if (stream === 'stderr') demo.stderr = (demo.stderr + chunk).slice(-4_000_000);
          else demo.keepWarnings(chunk);
        },
      });
    } catch (err) {
      demo.saveLog();
      throw new Error(`demo ${o.name} did not start: ${(err as Error).message}`);
    }
    demo.app.child.once('exit', (code, signal) => {
      demo.exit = { code, signal };
      demo.saveLog();
    });
    return demo;
  }

  /** Where it listens. */
  get port(): number {
    return this.started.listenPort;
  }

  /** What `PORT` told it: the address clients (and token audiences) name. */
  get publicPort(): number {
    return this.started.port;
  }

  get child(): ChildProcess {
    return this.started.child;
  }

  private get started(): AppProcess {
    if (!this.app) throw new Error(`demo ${this.name} has not started`);
    return this.app;
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
    return (await this.stats()).memory;
  }

  /** Memory after a full GC (with `exposeGc`), and what the process holds: handles, timers, listens, subscribers. */
  async stats(token?: string): Promise<ProcessStats> {
    return JSON.parse(await this.tool('rel_stats', { gc: true }, token)) as ProcessStats;
  }

  /** Calls one of the fixture's synchronous tools and returns its text. */
  async tool(name: string, args: Record<string, unknown> = {}, token?: string): Promise<string> {
    const r = await rpc(this, undefined, 'tools/call', { name, arguments: args }, { token });
    const text = r.json?.result?.content?.[0]?.text;
    if (typeof text !== 'string') throw new Error(`${this.name}: ${name} answered ${r.status} ${r.text.slice(0, 200)}`);
    return text;
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.alive) this.child.kill(signal);
  }

  /** Writes what the process printed on stderr to `.tmp/reliability/<name>-<pid>.stderr.log`. */
  saveLog(): void {
    mkdirSync(LOG_DIR, { recursive: true });
    const pid = this.app?.pid ?? 'unstarted';
    writeFileSync(join(LOG_DIR, `${this.name}-${pid}.stderr.log`), this.stderr);
    if (this.warnings) writeFileSync(join(LOG_DIR, `${this.name}-${pid}.warn.log`), this.warnings);
  }

  private keepWarnings(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop()!.slice(-10_000);
    const warned = lines.filter((l) => /\bWARN\b/.test(l));
    if (warned.length > 0) this.warnings = (this.warnings + warned.join('\n') + '\n').slice(-1_000_000);
  }

  /** SIGTERM (graceful: shutdown hooks), SIGKILL after `ms`. */
  stop(ms = 15_000): Promise<void> {
    return this.started.stop(ms);
  }
}
