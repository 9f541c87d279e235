import type { TestPostgres } from '../../test/support/postgres.js';
import type { Plan } from '../config.js';
import type { BenchOptions } from '../contestants/process.js';
import type { Results } from '../report/results.js';

/** What every scenario gets: the plan, where to run, where to record, how to report progress. */
export interface Ctx {
  plan: Plan;
  o: BenchOptions;
  results: Results;
  log: (line: string) => void;
  /** The run's throwaway PostgreSQL cluster (test/support/postgres.ts), started on first use. */
  postgres: () => Promise<TestPostgres>;
}
