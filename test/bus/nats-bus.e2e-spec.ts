import { describe } from '@jest/globals';
import { taskEventBusContract } from '@mcp-tasks/nestjs/testing';
import { startNats } from '../support/nats.js';
import { busHarness, natsBus } from './bus-harnesses.js';

describe('NatsTaskEventBus: the bus contract', () =>
  taskEventBusContract(async () => {
    const nats = await startNats();
    return busHarness(
      nats.url,
      (url) => natsBus(url),
      () => nats.stop(),
    );
  }));
