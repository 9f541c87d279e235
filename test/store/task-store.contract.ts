import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { changesContract } from './contract/changes.contract.js';
import { concurrencyContract } from './contract/concurrency.contract.js';
import { createGetContract } from './contract/create-get.contract.js';
import { leasesContract } from './contract/leases.contract.js';
import { queriesContract } from './contract/queries.contract.js';
import { sweepContract } from './contract/sweep.contract.js';
import type { HarnessFactory, StoreHarness } from './store-harness.js';

/**
 * The behaviour every `TaskStore` must have, run against the store `open` builds (once per suite;
 * emptied before each test). Call inside a `describe` of an e2e spec.
 */
export function taskStoreContract(open: HarnessFactory): void {
  let harness: StoreHarness | undefined;
  const h = (): StoreHarness => {
    if (!harness) throw new Error('store harness failed to open');
    return harness;
  };
  beforeAll(async () => {
    harness = await open();
  });
  afterAll(async () => harness?.close());
  beforeEach(async () => h().reset());

  createGetContract(h);
  changesContract(h);
  concurrencyContract(h);
  sweepContract(h);
  leasesContract(h);
  queriesContract(h);
}
