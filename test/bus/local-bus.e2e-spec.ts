import { describe } from '@jest/globals';
import { taskEventBusContract } from '@mcp-tasks/nestjs/testing';
import { localHarness } from './bus-harnesses.js';

// It delivers within publish(), in this process: a copy that must not come would be there at once, so the negative
// checks' settle is short (the 300 ms default is sized for a broker's round trip).
describe('LocalTaskEventBus: the bus contract', () =>
  taskEventBusContract(async () => localHarness(), undefined, { settle: 50 }));
