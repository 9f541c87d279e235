import { describe } from '@jest/globals';
import { memoryHarness } from './memory-harness.js';
import { taskStoreContract } from '@mcp-tasks/nestjs/testing';

// The contract on jest's globals, as a store author's own test would call it.
describe('MemoryTaskStore', () => {
  taskStoreContract(memoryHarness);
});
