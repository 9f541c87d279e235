import { changesContract } from './contract/changes.contract.js';
import { concurrencyContract } from './contract/concurrency.contract.js';
import { createGetContract } from './contract/create-get.contract.js';
import { leasesContract } from './contract/leases.contract.js';
import { legacyFieldsContract } from './contract/legacy-fields.contract.js';
import { ownerListingContract } from './contract/owner-listing.contract.js';
import { mirrorsContract } from './contract/mirrors.contract.js';
import { queriesContract } from './contract/queries.contract.js';
import { statusesContract } from './contract/statuses.contract.js';
import { sweepContract } from './contract/sweep.contract.js';
import type { HarnessFactory, StoreHarness } from './store-harness.interface.js';
import { globalTestApi, type TestApi } from './test-api.js';

/**
 * The behaviour every `TaskStore` must have: creation under the caps, reads, every change and its
 * compare-and-set, concurrency (with a second instance over the same data), expiry and the sweep, leases and their
 * reclaim, the fields 2025-11-25 tasks add and their input-channel claim, and the optional batch read `statuses`
 * when the store has it. Runs against the store `open` builds (once per suite; emptied before each test). Call it
 * inside a `describe` of your test file:
 *
 * ```ts
 * import { taskStoreContract } from '@mcp-tasks/nestjs/testing';
 * describe('RedisTaskStore', () => taskStoreContract(openRedisHarness));
 * ```
 *
 * `test` is the framework's `{ describe, it, expect, beforeAll, afterAll, beforeEach }`
 * (default: the framework's globals — jest; vitest with `globals: true`). `options.queries` checks the optional
 * listing and aggregate methods the operator console reads (`listTasks`, `taskCounts`, `taskActivity`);
 * a store without them passes `{ queries: false }`; `options.ownerListing` the `listByOwner` of 2025-11-25
 * `tasks/list` (`{ ownerListing: false }` without it);
 * `options.mirrors` checks what proxying upstream servers needs (`adoptLapsedMirrors`, the `upstream` field); a
 * store without it passes `{ mirrors: false }`.
 */
export function taskStoreContract(
  open: HarnessFactory,
  test: TestApi = globalTestApi(),
  options: TaskStoreContractOptions = {},
): void {
  let harness: StoreHarness | undefined;
  const h = (): StoreHarness => {
    if (!harness) throw new Error('store harness failed to open');
    return harness;
  };
  test.beforeAll(async () => {
    harness = await open();
  });
  test.afterAll(async () => harness?.close());
  test.beforeEach(async () => h().reset());

  createGetContract(h, test);
  changesContract(h, test);
  concurrencyContract(h, test);
  sweepContract(h, test);
  leasesContract(h, test);
  legacyFieldsContract(h, test);
  if (options.ownerListing !== false) ownerListingContract(h, test);
  statusesContract(h, test);
  if (options.queries !== false) queriesContract(h, test);
  if (options.mirrors !== false) mirrorsContract(h, test);
}

/** What `taskStoreContract` checks beyond what every store must do. */
export interface TaskStoreContractOptions {
  /**
   * Check `listTasks`, `taskCounts` and `taskActivity` (optional `TaskStore` methods, read by the operator console).
   * @default true
   */
  queries?: boolean;
  /**
   * Check `listByOwner` (an optional `TaskStore` method, read by 2025-11-25 `tasks/list`).
   * @default true
   */
  ownerListing?: boolean;
  /**
   * Check the mirrors of upstream tasks (the `upstreams` option): the `upstream` field and `adoptLapsedMirrors`
   * (optional `TaskStore` method; a store without it passes `{ mirrors: false }` and cannot serve upstreams).
   * @default true
   */
  mirrors?: boolean;
}
