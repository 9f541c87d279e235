import type { MetricKey } from './metrics.js';

/** One figure for one contestant: a value, or why it was not measured. */
export interface Cell {
  value?: number;
  notRun?: string;
  note?: string;
  /** The figure of each interleaved round, in order (round i of two contestants ran side by side). */
  rounds?: number[];
}

export interface RunInfo {
  date: string;
  quick: boolean;
  startedAt: string;
  seconds: number;
  node: string;
  cpus: string;
  /** 1-minute load average over the run (the bench alone keeps it near 2 on this 2-core machine). */
  load: { mean: number; max: number };
  /** Share of the machine's CPU time the hypervisor gave to other guests during the run, in percent. */
  steal?: number;
  commit: string;
  versions: Record<string, string>;
}

/** Everything one bench run measured, by metric and contestant, in the order it was measured. */
export class Results {
  readonly cells = new Map<MetricKey, Map<string, Cell>>();
  readonly contestants: string[] = [];
  readonly notes: string[] = [];

  set(metric: MetricKey, contestant: string, value: number, note?: string, rounds?: number[]): void {
    this.cell(metric, contestant, { value, note, ...(rounds ? { rounds } : {}) });
  }

  notRun(metric: MetricKey, contestant: string, reason: string): void {
    this.cell(metric, contestant, { notRun: reason });
  }

  get(metric: MetricKey, contestant: string): Cell | undefined {
    return this.cells.get(metric)?.get(contestant);
  }

  value(metric: MetricKey, contestant: string): number | undefined {
    const v = this.get(metric, contestant)?.value;
    return v === undefined || !Number.isFinite(v) ? undefined : v;
  }

  private cell(metric: MetricKey, contestant: string, cell: Cell): void {
    if (!this.contestants.includes(contestant)) this.contestants.push(contestant);
    let row = this.cells.get(metric);
    if (!row) this.cells.set(metric, (row = new Map()));
    row.set(contestant, cell);
  }

  toJSON() {
    return {
      contestants: this.contestants,
      notes: this.notes,
      cells: Object.fromEntries([...this.cells].map(([k, v]) => [k, Object.fromEntries(v)])),
    };
  }
}
