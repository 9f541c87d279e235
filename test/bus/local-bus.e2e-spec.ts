import { describe } from '@jest/globals';
import { taskEventBusContract } from '@mcp-tasks/nestjs/testing';
import { localHarness } from './bus-harnesses.js';

describe('LocalTaskEventBus: the bus contract', () => taskEventBusContract(async () => localHarness()));
