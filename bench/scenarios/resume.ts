import { launch } from '../contestants/lineup.js';
import { onPostgres } from '../contestants/registry.js';
import { summarize } from '../load/stats.js';
import type { MetricKey } from '../report/metrics.js';
import { RESUME_PAIR } from '../report/names.js';
import type { Ctx } from './context.js';
import { handOverRound, type RoundResult } from './resume-round.js';
import { RESUME } from './resume.settings.js';

export const RESUME_KEYS: MetricKey[] = ['resumeKillP50', 'resumeKillP99', 'resumeTermP50', 'resumeTermP99'];

const ENV = { MCP_LEASE: String(RESUME.leaseMs), MCP_SHUTDOWN_GRACE: String(RESUME.graceMs) };
/** Past the latest hand-over the library allows (the lease lapsing, a look every pollInterval), room for a busy box. */
const GIVE_UP = { SIGKILL: 2 * RESUME.leaseMs + 5_000, SIGTERM: RESUME.graceMs + RESUME.leaseMs + 5_000 };

/**
 * Tasks that outlive their instance (issue 38): B, a demo on PostgreSQL, stays up; each round starts a fresh A on the
 * same database with resumable tasks, ends it — SIGKILL (its leases lapse) or SIGTERM (it hands them over after
 * shutdownGrace) — and times each task's next attempt on B, reported against the lease.
 */
export async function measureResume(ctx: Ctx, url: string): Promise<void> {
  const demo = (id: string, role: string, ownSignals = false) => {
    const c = onPostgres(url, id, `${RESUME_PAIR} — ${role}`, ENV);
    return { ...c, spec: { ...c.spec, ownSignals } };
  };
  const b = await launch(demo('resume-b', 'B'), ctx.o, ctx.log);
  if (!b.ok) return notRun(ctx, b.reason);
  try {
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const [p50, p99] = signal === 'SIGKILL' ? RESUME_KEYS.slice(0, 2) : RESUME_KEYS.slice(2);
      const rounds: RoundResult[] = [];
      try {
        for (let i = 0; i < ctx.plan.resumeRounds; i++) {
          const a = await launch(
            demo(`resume-a-${signal.toLowerCase()}-${i}`, `A for ${signal}`, signal === 'SIGTERM'),
            ctx.o,
            ctx.log,
          );
          if (!a.ok) throw new Error(`instance A did not start: ${a.reason}`);
          try {
            rounds.push(await handOverRound(a.run, b.run, signal, ctx.plan.resumeTasks, GIVE_UP[signal]));
          } finally {
            await a.run.stop();
          }
        }
        record(ctx, signal, rounds, p50, p99);
      } catch (err) {
        for (const k of [p50, p99]) ctx.results.notRun(k, RESUME_PAIR, (err as Error).message);
        ctx.log(`  ${signal} rounds stopped: ${(err as Error).message}`);
      }
    }
  } finally {
    await b.run.stop();
  }
}

export function notRun(ctx: Ctx, reason: string): void {
  for (const k of RESUME_KEYS) ctx.results.notRun(k, RESUME_PAIR, reason);
}

type Signal = keyof typeof GIVE_UP;

function record(ctx: Ctx, signal: Signal, rounds: RoundResult[], p50Key: MetricKey, p99Key: MetricKey): void {
  const samples = rounds.flatMap((r) => r.progressed);
  const lost = rounds.reduce((n, r) => n + r.lost, 0);
  const odd = rounds.flatMap((r) => r.odd);
  if (samples.length === 0) throw new Error(`no task was resumed within ${GIVE_UP[signal]} ms`);
  // A task never resumed counts as the deadline in p99, as the cancel figure counts a lost signal.
  const all = summarize([...samples, ...Array<number>(lost).fill(GIVE_UP[signal])]);
  const began = summarize(rounds.flatMap((r) => r.started));
  const lease = (ms: number) => `${(ms / RESUME.leaseMs).toFixed(2)}× lease`;
  const each = rounds
    .map((r) => {
      const x = summarize(r.progressed);
      const spread = Math.round(x.max - Math.min(...r.progressed));
      return `${Math.round(x.p50)} (${spread} spread, ${looks(r.started)} look)`;
    })
    .join(', ');
  const exits = rounds.flatMap((r) => (r.exited === undefined ? [] : [Math.round(r.exited)]));
  const note = [
    `${samples.length + lost} tasks in ${rounds.length} round${rounds.length > 1 ? 's' : ''}` +
      ` (each round's median, max − min and the looks of B that took its tasks over: ${each} ms);` +
      ` lease ${RESUME.leaseMs} ms, shutdownGrace ${RESUME.graceMs} ms`,
    `p50 ${lease(all.p50)}, p99 ${lease(all.p99)}`,
    `the new attempt's run began at p50 ${Math.round(began.p50)} ms`,
    exits.length ? `A's process gone after ${exits.join(', ')} ms` : '',
    lost ? `${lost} never resumed within ${GIVE_UP[signal]} ms (counted as that in p99)` : '',
    odd.length ? `${odd.length} odd: ${odd.slice(0, 3).join('; ')}` : '',
  ].filter(Boolean);
  ctx.results.set(p50Key, RESUME_PAIR, all.p50, note.join('; '));
  ctx.results.set(p99Key, RESUME_PAIR, all.p99);
  ctx.log(`  ${signal} → attempt 2's first progress: p50 ${Math.round(all.p50)} ms, p99 ${Math.round(all.p99)} ms`);
  ctx.log(`    ${note.join('; ')}`);
}

/** How many of B's looks (every pollInterval, 250 ms) took a round's tasks over: runs that began over 150 ms apart. */
function looks(started: number[]): number {
  const sorted = [...started].sort((x, y) => x - y);
  return sorted.reduce((n, t, i) => (i > 0 && t - sorted[i - 1] > 150 ? n + 1 : n), 1);
}
