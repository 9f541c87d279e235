import { describe } from '@jest/globals';
import { taskEventBusContract } from '@mcp-tasks/nestjs/testing';
import { startPostgres } from '../support/postgres.js';
import { busHarness, postgresBus } from './bus-harnesses.js';

// Its targeting checks run once the PostgreSQL bus has `follow` (they are skipped for a bus that relays all).
describe('PostgresTaskEventBus: the bus contract', () =>
  taskEventBusContract(async () => {
    const db = await startPostgres();
    return busHarness(
      db.url,
      (url) => postgresBus(url),
      () => db.stop(),
    );
  }));
