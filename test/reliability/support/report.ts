import { PhaseTally, sumOf } from './tally.js';

export interface CheckResult {
  phase: string;
  name: string;
  ok: boolean;
  detail: string;
}

/** The run's checks and per-phase figures, and the summary printed at the end. */
export class Report {
  readonly checks: CheckResult[] = [];
  readonly phases: PhaseTally[] = [];

  phase(name: string): PhaseTally {
    const t = new PhaseTally(name);
    this.phases.push(t);
    return t;
  }

  /** Records one check; `detail` says what was measured (and, on failure, what went wrong). */
  check(phase: PhaseTally | string, name: string, ok: boolean, detail = ''): boolean {
    const p = typeof phase === 'string' ? phase : phase.name;
    this.checks.push({ phase: p, name, ok, detail });
    process.stdout.write(`  ${ok ? 'PASS' : 'FAIL'} [${p}] ${name}${detail ? ` — ${detail}` : ''}\n`);
    return ok;
  }

  get failed(): number {
    return this.checks.filter((c) => !c.ok).length;
  }

  summary(): string {
    const out: string[] = [];
    out.push('', '== Traffic ==');
    out.push(
      table(
        ['phase', 'requests', 'no answer', '5xx', 'HTTP statuses', 'JSON-RPC errors by code'],
        this.phases.map((t) => [
          t.name,
          String(t.requests),
          String(t.transportErrors),
          String(t.fiveXx),
          hist(t.statuses),
          hist(t.codes),
        ]),
      ),
    );
    out.push('', '== Tasks ==');
    out.push(
      table(
        ['phase', 'started', 'completed', 'failed', 'cancelled', 'stuck', 'lost answers'],
        this.phases
          .filter((t) => sumOf(t.tasksStarted) || sumOf(t.tasksEnded) || t.stuck)
          .map((t) => [
            t.name,
            String(sumOf(t.tasksStarted)),
            ...['completed', 'failed', 'cancelled'].map((s) => String(t.tasksEnded.get(s) ?? 0)),
            String(t.stuck),
            String(t.lostAnswers),
          ]),
      ),
    );
    const lat = this.phases.flatMap((t) =>
      [...t.latencies.keys()]
        .filter((l) => (t.latencies.get(l)?.length ?? 0) >= 20)
        .map((l) => [
          t.name,
          l,
          String(t.latencies.get(l)!.length),
          ms(t.percentile(l, 50)),
          ms(t.percentile(l, 99)),
          ms(t.percentile(l, 100)),
        ]),
    );
    out.push('', '== Latency (ms) ==');
    out.push(table(['phase', 'request', 'n', 'p50', 'p99', 'max'], lat));
    const notes = this.phases.flatMap((t) => t.notes.map(([k, v]) => [t.name, k, v]));
    if (notes.length) out.push('', '== Figures ==', table(['phase', 'figure', 'value'], notes));
    const failures = this.checks.filter((c) => !c.ok);
    if (failures.length) {
      out.push('', '== Failed checks ==');
      for (const f of failures) out.push(`- [${f.phase}] ${f.name}: ${f.detail}`);
    }
    out.push('', `${this.checks.length - this.failed} passed, ${this.failed} failed`);
    return out.join('\n');
  }
}

const ms = (v: number | undefined): string => (v === undefined ? '-' : v.toFixed(1));

const hist = (m: Map<number, number>): string =>
  [...m.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k}×${v}`)
    .join(' ') || '-';

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
