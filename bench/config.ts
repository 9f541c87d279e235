/** How much to measure: `--quick` (< 2 min) or the full run (~11.5 min; `--scale` adds ~3). Counts bound every loop. */
export interface Plan {
  quick: boolean;
  /** Load runs: unmeasured warm-up, then a measured phase bounded in time and in requests. */
  warmupMs: number;
  durationMs: number;
  maxRequests: number;
  /** Interleaved rounds of the head-to-head throughput and CPU figures (median / total over them). */
  rounds: number;
  /** Concurrency of the throughput figures (tasks/get, synchronous tools/call). */
  concurrency: number;
  /** Clients of the task-creation throughput figure. */
  createClients: number;
  /** Sequential cancel rounds (each: create on A, cancel on B, wait for A's signal). */
  cancelRounds: number;
  /** Measured phase of each tasks/get latency round with few / many live tasks. */
  scaleMs: number;
  /** Live tasks for the small and large tasks/get latency figures, per store. */
  scaleSmall: number;
  scaleLarge: { memory: number; database: number };
  /** Idle tasks for the memory-per-task figure. */
  idleTasks: number;
  /** Tasks made through tools/call for the memory-per-completed-task figure. */
  doneTasks: number;
  /** Requests of each round of a CPU-per-request figure (fixed count, after a warm-up). */
  cpuRequests: number;
  /**
   * Interleaved rounds of the CPU-per-request figures: their ratios are medians of per-round pairs. Many short
   * rounds rather than a few long ones: a round's figure swings ±30 % on a shared machine, and the median of 16
   * pairs measured moments apart moved ~0.05 between runs where that of 5 moved ~0.4 (same code, same total).
   */
  cpuRounds: number;
  /**
   * Two-instance phase: paired rounds (the first instance alone with the whole load, then both sharing it), each
   * side measured for `pairMs`. Before them, each instance alone in turns until it answered `pairWarmAnswers`
   * requests and the second costs about what the first does, for at most `pairWarmMs` (two-instances.warm-up.ts).
   */
  pairRounds: number;
  pairMs: number;
  pairWarmAnswers: number;
  pairWarmMs: number;
  /** Resume phase: resumable tasks per round, and rounds ending their instance with SIGKILL and with SIGTERM. */
  resumeTasks: number;
  resumeRounds: number;
}

export function planFor(quick: boolean): Plan {
  return quick
    ? {
        quick,
        warmupMs: 300,
        durationMs: 1_000,
        maxRequests: 200_000,
        rounds: 1,
        concurrency: 16,
        createClients: 50,
        cancelRounds: 20,
        scaleMs: 500,
        scaleSmall: 1_000,
        scaleLarge: { memory: 100_000, database: 10_000 },
        idleTasks: 100_000,
        doneTasks: 1_500,
        cpuRequests: 300,
        cpuRounds: 3,
        pairRounds: 3,
        pairMs: 500,
        pairWarmAnswers: 3_000,
        pairWarmMs: 10_000,
        resumeTasks: 30,
        resumeRounds: 1,
      }
    : {
        quick,
        warmupMs: 1_000,
        durationMs: 2_500,
        maxRequests: 1_000_000,
        rounds: 3,
        concurrency: 16,
        createClients: 50,
        cancelRounds: 200,
        scaleMs: 3_000,
        scaleSmall: 1_000,
        scaleLarge: { memory: 100_000, database: 100_000 },
        idleTasks: 100_000,
        doneTasks: 20_000,
        cpuRequests: 2_500,
        cpuRounds: 16,
        pairRounds: 8,
        pairMs: 1_000,
        pairWarmAnswers: 20_000,
        pairWarmMs: 60_000,
        resumeTasks: 50,
        resumeRounds: 4,
      };
}
