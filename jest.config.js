// ESM jest: ts-jest transpiles each file on its own (tsc --noEmit type-checks the whole tree separately).
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^#app/mcp-tasks$': '<rootDir>/libs/mcp-tasks/src/index.ts',
    '^#app/mcp-tasks/typeorm$': '<rootDir>/libs/mcp-tasks/src/store/typeorm/index.ts',
    '^#app/mcp-tasks-client$': '<rootDir>/libs/mcp-tasks-client/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.spec.json' }],
  },
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.cjs'],
};
