import type { Plan } from '../config.js';

/**
 * The buses phase's sizes. The instances poll the store every 30 s (`MCP_POLL_INTERVAL`): a cancel or an answer
 * seen within the rounds' 2 s came over the bus, not from a store read.
 */
export const BUSES = {
  pollIntervalMs: 30_000,
  /** CPU rounds per cluster size, relays per round, and relays of the unmeasured round before a size's first. */
  cpuRounds: (p: Plan) => (p.quick ? 1 : 2),
  cpuEvents: (p: Plan) => (p.quick ? 80 : 150),
  cpuWarmup: 40,
  /** Sequential latency rounds per bus and relay kind. */
  latencyRounds: (p: Plan) => (p.quick ? 20 : 60),
  /** Writer rounds per side (alone, PostgreSQL bus, Redis bus), and each round's length. */
  writerRounds: (p: Plan) => (p.quick ? 2 : 3),
  writerMs: (p: Plan) => (p.quick ? 1_500 : 2_000),
};
