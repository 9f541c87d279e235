import { describe } from '@jest/globals';
import { memoryHarness } from './memory-harness.js';
import { taskStoreContract } from '@mcp-tasks/nestjs/testing';

// The contract on jest's globals, as a store author's own test would call it. A memory store dies with its
// process: nothing to resume (no ResumableTasks).
describe('MemoryTaskStore', () => {
  taskStoreContract(memoryHarness, undefined, { resumable: false });
});
