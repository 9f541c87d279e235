/**
 * The resume phase's instances: `MCP_LEASE` and `MCP_SHUTDOWN_GRACE` of every demo in it, and how often its tasks
 * report progress. The figures are reported against the lease, so its value is part of them.
 */
export const RESUME = {
  /** A task's lease: renewed every lease/3; each instance looks for lapsed ones every pollInterval (the demo's 250). */
  leaseMs: 4_000,
  /** How long a stopping instance lets runs finish before it hands resumable tasks over. */
  graceMs: 500,
  /** Progress every this many ms (`bench_resumable`): a store write per task each time. */
  stepMs: 100,
};
