import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { LoopbackClient } from '../load/http-client.js';
import { freePort } from '../../test/support/free-port.js';

/** How to start one contestant: a compiled script run by node, on its own port. */
export interface ProcessSpec {
  id: string;
  script: string;
  env?: Record<string, string>;
  nodeArgs?: string[];
}

export interface BenchOptions {
  root: string;
  workDir: string;
  /** Write a V8 CPU profile per contestant into `<workDir>/profiles/<id>`. */
  profile: boolean;
}

/** A started contestant. */
export class Running {
  readonly client: LoopbackClient;
  /** Set once `stop()` was called. */
  stopping = false;
  /** Why the process ended, when it ended without being stopped. */
  died?: string;
  constructor(
    readonly spec: ProcessSpec,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {
    this.client = new LoopbackClient(port);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** user + system CPU seconds the process has used (the counters process.cpuUsage() reads). */
  cpuSeconds(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ (100 on Linux)
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.client.close();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Starts the process and waits until its port accepts connections; throws with its last output if it dies first. */
export async function startProcess(spec: ProcessSpec, o: BenchOptions, readyMs = 60_000): Promise<Running> {
  const port = await freePort();
  const logs = join(o.workDir, 'logs');
  mkdirSync(logs, { recursive: true });
  const preload = pathToFileURL(resolve(o.root, 'dist/bench/contestants/exit-on-signal.js')).href;
  const profile = o.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(o.workDir, 'profiles', spec.id)}`] : [];
  const args = [...(spec.nodeArgs ?? []), ...profile, '--import', preload, resolve(o.root, spec.script)];
  const child = spawn(process.execPath, args, {
    cwd: o.root,
    env: { ...process.env, ...spec.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(logs, `${spec.id}.log`));
  let tail = '';
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-2000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const running = new Running(spec, port, child);
  child.once('exit', (code, signal) => {
    if (!running.stopping) {
      running.died = `exited on its own (${signal ?? `code ${code}`}): ${lastLines(tail)}`;
      log.write(`\n[bench] ${running.died}\n`);
    }
    log.end();
  });
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before listening: ${lastLines(tail)}`);
    if (await accepts(port)) return running;
    if (Date.now() > deadline) {
      await running.stop();
      throw new Error(`not listening after ${readyMs} ms: ${lastLines(tail)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lastLines = (text: string) => stripVTControlCharacters(text).trim().split('\n').slice(-3).join(' | ').slice(-600);

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
