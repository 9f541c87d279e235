import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from './cluster.js';
import type { DemoProcess } from './demo-process.js';
import { sendRaw } from './http.js';
import type { Rotation } from './rotation.js';

/** One instance replaced in a rolling deploy. */
export interface Restart {
  old: DemoProcess;
  replacement: DemoProcess;
  /** How long its requests in flight took to finish once out of rotation, and how many did not in time. */
  drainedMs: number;
  stillInFlight: number;
  sigtermAt: number;
  /** SIGTERM → exit, or undefined when it had to be killed (SIGKILL) after `exitWithinMs`. */
  exitMs?: number;
  /** SIGTERM → the replacement's /health answered 200 `ok` (it then joined the rotation). */
  healthyMs: number;
}

/**
 * Replaces `old` as a rolling deploy does: out of rotation (its requests in flight finish), SIGTERM, a new instance
 * started at once, put in rotation once `GET /health` says `ok`; resolves when the old one has exited too.
 */
export async function replace(
  cluster: Cluster,
  lb: Rotation,
  old: DemoProcess,
  exitWithinMs: number,
): Promise<Restart> {
  const { drainedMs, stillInFlight } = await lb.remove(old, 5_000);
  const sigtermAt = Date.now();
  const exited = exitOf(old, exitWithinMs);
  old.kill('SIGTERM');
  const replacement = await cluster.join(`${old.name}2`);
  await healthy(replacement, 30_000);
  const healthyMs = Date.now() - sigtermAt;
  lb.add(replacement);
  return { old, replacement, drainedMs, stillInFlight, sigtermAt, exitMs: await exited, healthyMs };
}

/** Ms from now until `d` exits; undefined (and SIGKILL) if it has not after `maxMs`. */
function exitOf(d: DemoProcess, maxMs: number): Promise<number | undefined> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      resolve(undefined);
      d.kill('SIGKILL');
    }, maxMs);
    d.child.once('exit', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

async function healthy(d: DemoProcess, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const r = await sendRaw(d, { method: 'GET', path: '/health', headers: {} }, 2_000);
    if (r.status === 200 && r.json?.status === 'ok') return;
    if (Date.now() > deadline) throw new Error(`${d.name}: /health still ${r.status ?? r.transportError} ${r.text}`);
    await sleep(100);
  }
}
