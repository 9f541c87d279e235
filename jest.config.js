// ESM jest: ts-jest transpiles each file on its own (tsc --noEmit type-checks the whole tree separately).
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // The packages by name, as an app imports them, but from source (no build needed to test).
    '^@mcp-tasks/nestjs$': '<rootDir>/libs/mcp-tasks/src/index.ts',
    '^@mcp-tasks/nestjs/typeorm$': '<rootDir>/libs/mcp-tasks/src/store/typeorm/index.ts',
    '^@mcp-tasks/nestjs/testing$': '<rootDir>/libs/mcp-tasks/src/testing/index.ts',
    '^@mcp-tasks/nestjs/console$': '<rootDir>/libs/mcp-tasks/src/console/index.ts',
    '^@mcp-tasks/client$': '<rootDir>/libs/mcp-tasks-client/src/index.ts',
    '^@mcp-tasks/client/testing$': '<rootDir>/libs/mcp-tasks-client/src/testing/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.spec.json' }],
  },
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 30000,
  // One worker, replaced after a file that leaves its heap over 1 GB. Without it jest runs every file in its main
  // process on a 2-core machine (in band), whose heap only grew (1.3 GB after 85 files, toward the 4 GB limit after
  // 171), and the last files ran several times slower than alone (CI: test/bus/local-bus 68 s, 4 s alone).
  workerIdleMemoryLimit: '1GB',
  // Installs redis-server and nats-server when missing (as root), before any worker.
  globalSetup: '<rootDir>/test/support/broker-servers.setup.mjs',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.cjs'],
};
