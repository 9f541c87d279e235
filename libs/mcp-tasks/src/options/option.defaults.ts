/** Every option's default that is a plain value (the store, guards and secret are made per registration). */
export const OPTION_DEFAULTS = {
  path: '/mcp',
  lease: 30_000,
  shutdownGrace: 10_000,
  ttl: 3_600_000,
  pollInterval: 1_000,
  maxPerPrincipal: 100,
  maxTasks: Infinity,
  tasks: true,
  telemetry: true,
  requestStateTtl: 600_000,
  questionTimeout: 300_000,
  fastPath: false,
  trustProxy: false,
} as const;
