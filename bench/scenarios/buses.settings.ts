import type { Plan } from '../config.js';

/**
 * The buses phase's sizes. The instances poll the store every 30 s (`MCP_POLL_INTERVAL`): a cancel or an answer
 * seen within the rounds' 2 s came over the bus, not from a store read.
 */
export const BUSES = {
  pollIntervalMs: 30_000,
  /**
   * CPU rounds (one batch per size each, after one unmeasured), and the waiting tasks each instance starts per batch:
   * at most 4 × 20 live at once, under the demo's default cap of 100 per principal (every bench client is one).
   */
  cpuRounds: (p: Plan) => (p.quick ? 4 : 10),
  cpuPerHolder: 20,
  /** Sequential latency rounds per bus and relay kind. */
  latencyRounds: (p: Plan) => (p.quick ? 20 : 60),
  /** Writer rounds per side (alone, PostgreSQL bus, Redis bus), and each round's length. */
  writerRounds: (p: Plan) => (p.quick ? 2 : 3),
  writerMs: (p: Plan) => (p.quick ? 1_500 : 2_000),
};
