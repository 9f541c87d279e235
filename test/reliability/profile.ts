/** How much each phase does: the CI-sized default, or `--long`. */
export interface Profile {
  name: 'ci' | 'long';
  /** fast-check seed (`--seed N`), printed so a run can be replayed. */
  seed: number;
  fuzzCases: number;
  authFuzzCases: number;
  megabyteBodies: number;
  fuzzConcurrency: number;
  loadClients: number;
  loadSeconds: number;
  killClients: number;
  outageClients: number;
  outageMs: number;
  sqliteTasks: number;
  taskIds: number;
  /** Adversarial MRTR/task answers sent (each case one to three calls). */
  answerCases: number;
  /** Listens, and synchronous SSE calls, cut at a random point. */
  cutListens: number;
  cutCalls: number;
  /** How long PostgreSQL stays down while an instance starts. */
  downAtStartMs: number;
  /** Tasks cancelled, answered and listened to through the other instance while the broker restarts. */
  brokerTasks: number;
  /** How long the broker (Redis, NATS) stays down. */
  brokerDownMs: number;
}

export function profileFrom(argv: string[]): Profile {
  const long = argv.includes('--long');
  const seedAt = argv.indexOf('--seed');
  const seed = seedAt >= 0 ? Number(argv[seedAt + 1]) : Math.floor(Math.random() * 2 ** 31);
  return long
    ? {
        name: 'long',
        seed,
        fuzzCases: 100_000,
        authFuzzCases: 10_000,
        megabyteBodies: 100,
        fuzzConcurrency: 32,
        loadClients: 400,
        loadSeconds: 300,
        killClients: 200,
        outageClients: 200,
        outageMs: 15_000,
        sqliteTasks: 1000,
        taskIds: 5_000_000,
        answerCases: 5_000,
        cutListens: 10_000,
        cutCalls: 10_000,
        downAtStartMs: 20_000,
        brokerTasks: 900,
        brokerDownMs: 10_000,
      }
    : {
        name: 'ci',
        seed,
        fuzzCases: 10_000,
        authFuzzCases: 1_000,
        megabyteBodies: 12,
        fuzzConcurrency: 16,
        loadClients: 200,
        loadSeconds: 30,
        killClients: 60,
        outageClients: 100,
        outageMs: 4_000,
        sqliteTasks: 100,
        taskIds: 1_000_000,
        answerCases: 500,
        cutListens: 1_000,
        cutCalls: 1_000,
        downAtStartMs: 6_000,
        brokerTasks: 240,
        brokerDownMs: 3_000,
      };
}
