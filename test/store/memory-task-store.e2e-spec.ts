import { describe } from '@jest/globals';
import { memoryHarness } from './memory-harness.js';
import { taskStoreContract } from './task-store.contract.js';

describe('MemoryTaskStore', () => {
  taskStoreContract(memoryHarness);
});
