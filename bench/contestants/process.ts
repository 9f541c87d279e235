import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AppProcess } from '../../test/support/app-process.js';
import { LoopbackClient } from '../load/http-client.js';

/** How to start one contestant: a compiled script run by node, on its own port. */
export interface ProcessSpec {
  id: string;
  script: string;
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** SIGTERM reaches the app's own shutdown hooks, not the preload that ends the process at once. */
  ownSignals?: boolean;
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
    private readonly app: AppProcess,
  ) {
    this.client = new LoopbackClient(app.port);
  }

  get port(): number {
    return this.app.port;
  }

  get pid(): number {
    return this.app.pid;
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
    await this.app.stop();
  }
}

/**
 * Starts the process and waits until its port accepts connections; throws with its last output if it dies first.
 * `readyMs`: head to head starts eight demos and three peers at once; on a 2-core machine at load 25–35 (other
 * benches and suites) they were listening after 60–75 s, and 60 s lost the whole phase in three runs out of three.
 */
export async function startProcess(spec: ProcessSpec, o: BenchOptions, readyMs = 180_000): Promise<Running> {
  const logs = join(o.workDir, 'logs');
  mkdirSync(logs, { recursive: true });
  const log = createWriteStream(join(logs, `${spec.id}.log`));
  const preload = pathToFileURL(resolve(o.root, 'dist/bench/contestants/exit-on-signal.js')).href;
  const profile = o.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(o.workDir, 'profiles', spec.id)}`] : [];
  const app = await AppProcess.start({
    script: resolve(o.root, spec.script),
    nodeArgs: [...(spec.nodeArgs ?? []), ...profile, ...(spec.ownSignals ? [] : ['--import', preload])],
    env: spec.env,
    cwd: o.root,
    readyMs,
    onOutput: (chunk) => log.write(chunk),
  }).catch((err: unknown) => {
    log.end();
    throw err;
  });
  const running = new Running(spec, app);
  app.child.once('exit', (code, signal) => {
    if (!running.stopping) {
      running.died = `exited on its own (${signal ?? `code ${code}`}): ${app.lastLines()}`;
      log.write(`\n[bench] ${running.died}\n`);
    }
    log.end();
  });
  return running;
}
