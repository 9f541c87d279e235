/** Figures of one phase: traffic, errors by code, task outcomes, latencies. */
export class PhaseTally {
  requests = 0;
  /** Requests that got no HTTP answer at all (reset, refused, timed out). */
  transportErrors = 0;
  readonly statuses = new Map<number, number>();
  readonly codes = new Map<number, number>();
  readonly tasksStarted = new Map<string, number>();
  readonly tasksEnded = new Map<string, number>();
  stuck = 0;
  lostAnswers = 0;
  readonly latencies = new Map<string, number[]>();
  /** Free-form figures a phase reports (`name → value`). */
  readonly notes: Array<[string, string]> = [];

  constructor(readonly name: string) {}

  get fiveXx(): number {
    let n = 0;
    for (const [s, c] of this.statuses) if (s >= 500) n += c;
    return n;
  }

  request(label: string, status: number | undefined, code: number | undefined, ms: number): void {
    this.requests++;
    if (status === undefined) this.transportErrors++;
    else bump(this.statuses, status);
    if (code !== undefined) bump(this.codes, code);
    let list = this.latencies.get(label);
    if (!list) this.latencies.set(label, (list = []));
    list.push(ms);
  }

  started(tool: string): void {
    bump(this.tasksStarted, tool);
  }

  ended(status: string): void {
    bump(this.tasksEnded, status);
  }

  note(name: string, value: string | number): void {
    this.notes.push([name, String(value)]);
  }

  /** Percentile `p` (0..100) of one label's latencies, in ms. */
  percentile(label: string, p: number): number | undefined {
    const list = this.latencies.get(label);
    if (!list?.length) return undefined;
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  }
}

function bump<K>(m: Map<K, number>, k: K, by = 1): void {
  m.set(k, (m.get(k) ?? 0) + by);
}

export const sumOf = (m: Map<unknown, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
