import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** A throwaway PostgreSQL cluster: trust auth, superuser `postgres`, database `postgres`. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string;
  /** Stops the server and deletes its files. Safe to call twice. */
  stop(): Promise<void>;
  /**
   * Stops the server (`pg_ctl -m fast`: sessions are ended, as in a real restart), waits `downMs`, and
   * starts it again on the same data directory and port; the data is kept. Resolves once it accepts
   * connections again, with when it went down (`pg_ctl stop` returned) and came back.
   */
  restart(options?: { downMs?: number }): Promise<{ stoppedAt: number; startedAt: number }>;
}

/**
 * Starts a PostgreSQL server for one test suite (call it from `beforeAll`, `stop()` in `afterAll`; it
 * also works from a jest `globalSetup`, handing `url` over in an environment variable). Needs only
 * the server binaries (Debian's `postgresql-15`): `initdb` and `pg_ctl` are found through
 * `PG_BINDIR`, `pg_config --bindir`, `PATH`, then `/usr/lib/postgresql/<newest>/bin`. Takes ~2 s:
 * fsync is off, which is fine for data thrown away at the end.
 *
 * PostgreSQL refuses to run as root, and CI runs as root: then the cluster runs as the `postgres`
 * OS user (or `nobody` where there is none), which owns the temp dir.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = findBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-pg-'));
  const data = join(dir, 'data');
  const as = runAsIdentity();
  if (as) chownSync(dir, as.uid, as.gid);
  // cwd: a non-root user may not be allowed into the caller's working directory.
  const opts = { cwd: dir, env: { ...process.env, LC_ALL: 'C', LANG: 'C' }, ...as, timeout: 60_000 };
  const pgCtl = join(bin, 'pg_ctl');
  let started = false;
  const stopNow = () => {
    if (started) spawnSync(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'], { ...opts, stdio: 'ignore' });
    started = false;
    rmSync(dir, { recursive: true, force: true });
  };
  // A crashed or interrupted test run must not leave a server behind.
  process.once('exit', stopNow);
  try {
    await run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      opts,
    );
    const port = await freePort();
    const server = [
      `-p ${port}`,
      `-k ${dir}`, // unix socket in our dir, not /var/run/postgresql (absent or root-owned)
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
      '-c max_connections=60',
    ].join(' ');
    started = true;
    const start = () =>
      run(pgCtl, ['-D', data, '-l', join(dir, 'server.log'), '-o', server, '-w', '-t', '30', 'start'], opts);
    await start();
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      stop: async () => {
        process.removeListener('exit', stopNow);
        stopNow();
      },
      restart: async ({ downMs = 0 } = {}) => {
        await run(pgCtl, ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'], opts);
        const stoppedAt = Date.now();
        await new Promise((resolve) => setTimeout(resolve, downMs));
        await start();
        return { stoppedAt, startedAt: Date.now() };
      },
    };
  } catch (err) {
    const log = join(dir, 'server.log');
    const detail = existsSync(log) ? `\n${spawnSync('tail', ['-n', '20', log], { encoding: 'utf8' }).stdout}` : '';
    stopNow();
    process.removeListener('exit', stopNow);
    throw new Error(`could not start a test PostgreSQL: ${(err as Error).message}${detail}`);
  }
}

function findBinDir(): string {
  const has = (d: string | undefined): d is string =>
    !!d && existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl'));
  const candidates = [process.env.PG_BINDIR, tryRun('pg_config', ['--bindir']), dirOf(tryRun('which', ['initdb']))];
  const installed = '/usr/lib/postgresql';
  if (existsSync(installed)) {
    const versions = readdirSync(installed)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(installed, v, 'bin')));
  }
  const found = candidates.find(has);
  if (!found)
    throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found: install postgresql or set PG_BINDIR');
  return found;
}

/** The user to run the server as when we are root; `undefined` when we are not. */
function runAsIdentity(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    const uid = tryRun('id', ['-u', user]);
    const gid = tryRun('id', ['-g', user]);
    if (uid && gid) return { uid: Number(uid), gid: Number(gid) };
  }
  throw new Error('running as root, and neither a "postgres" nor a "nobody" user exists to run PostgreSQL');
}

function tryRun(cmd: string, args: string[]): string | undefined {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const dirOf = (file: string | undefined) => (file ? join(file, '..') : undefined);
