import { newTaskId } from '../../../libs/mcp-tasks/src/tasks/task-id.js';
import type { RunContext } from '../support/context.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LENGTH = 24;

/** z such that P(Z > z) = p, for small p (Abramowitz–Stegun 26.2.23). */
function zFor(p: number): number {
  const t = Math.sqrt(-2 * Math.log(p));
  return (
    t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t)
  );
}

/** Upper critical value of chi-square with `df` degrees of freedom at level `p` (Wilson–Hilferty). */
const chiSquareCritical = (df: number, p: number): number =>
  df * (1 - 2 / (9 * df) + zFor(p) * Math.sqrt(2 / (9 * df))) ** 3;

/**
 * Task ids from the library's generator: no collision among N, the documented form (24 base64url
 * characters), every position uniform over the 64 symbols and every one of the 144 bits balanced
 * (Bonferroni-corrected at α = 0.001), and an estimated entropy of 144 bits.
 */
export async function taskIds(ctx: RunContext): Promise<void> {
  const { report, profile } = ctx;
  const t = report.phase('task-ids');
  const n = profile.taskIds;
  const seen = new Set<string>();
  const counts = new Uint32Array(LENGTH * 64);
  const ones = new Uint32Array(144);
  const index = new Int8Array(128).fill(-1);
  ALPHABET.split('').forEach((c, i) => (index[c.charCodeAt(0)] = i));
  let malformed = 0;
  const started = Date.now();
  for (let k = 0; k < n; k++) {
    const id = newTaskId();
    seen.add(id);
    if (id.length !== LENGTH) {
      malformed++;
      continue;
    }
    for (let p = 0; p < LENGTH; p++) {
      const s = index[id.charCodeAt(p)] ?? -1;
      if (s < 0) {
        malformed++;
        break;
      }
      counts[p * 64 + s]++;
      for (let b = 0; b < 6; b++) ones[p * 6 + b] += (s >> (5 - b)) & 1;
    }
  }
  t.note('ids generated', `${n} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  report.check(t, `no collision among ${n} ids`, seen.size === n, `${n - seen.size} collisions`);
  report.check(t, 'every id is 24 base64url characters', malformed === 0, `${malformed} malformed`);
  const expected = n / 64;
  const critical = chiSquareCritical(63, 0.001 / LENGTH);
  let worst = 0;
  let bits = 0;
  for (let p = 0; p < LENGTH; p++) {
    let chi = 0;
    let h = 0;
    let present = 0;
    for (let s = 0; s < 64; s++) {
      const c = counts[p * 64 + s];
      chi += (c - expected) ** 2 / expected;
      if (c > 0) {
        present++;
        h -= (c / n) * Math.log2(c / n);
      }
    }
    worst = Math.max(worst, chi);
    bits += h + (present - 1) / (2 * n * Math.LN2); // Miller–Madow bias correction
  }
  t.note('chi-square per position (df 63): worst / critical', `${worst.toFixed(1)} / ${critical.toFixed(1)}`);
  report.check(
    t,
    'every position uniform over the 64 symbols (chi-square)',
    worst < critical,
    `worst ${worst.toFixed(1)} < ${critical.toFixed(1)}`,
  );
  const zCrit = zFor(0.001 / 2 / 144);
  const worstZ = Math.max(...[...ones].map((o) => Math.abs(o - n / 2) / Math.sqrt(n / 4)));
  report.check(
    t,
    'each of the 144 bits is set half the time',
    worstZ < zCrit,
    `worst |z| ${worstZ.toFixed(2)} < ${zCrit.toFixed(2)}`,
  );
  const nominal = LENGTH * Math.log2(64);
  t.note('entropy: nominal / estimated (Shannon, Miller–Madow)', `${nominal} / ${bits.toFixed(4)} bits`);
  report.check(
    t,
    'entropy ≥ 144 bits (nominal 24 × 6; estimate within 0.01)',
    nominal >= 144 && bits >= 143.99,
    `${bits.toFixed(4)} bits`,
  );
}
