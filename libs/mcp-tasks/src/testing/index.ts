// `@mcp-tasks/nestjs/testing`: for people writing their own `TaskStore`. Loads no optional peer and no test
// framework: the framework's functions come from its globals or are passed in.
export { taskStoreContract, type TaskStoreContractOptions } from './task-store.contract.js';
export type { HarnessFactory, StoreHarness } from './store-harness.interface.js';
export type { ContractMatchers, TestApi } from './test-api.js';
export { NO_LIMITS, T0, TTL, newTask } from './task-fixtures.js';
export { taskEventBusContract, type TaskEventBusContractOptions } from './task-event-bus.contract.js';
export type { BusHarness, BusHarnessFactory } from './bus-harness.interface.js';
