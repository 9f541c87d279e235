import { changesContract } from './contract/changes.contract.js';
import { concurrencyContract } from './contract/concurrency.contract.js';
import { createGetContract } from './contract/create-get.contract.js';
import { fencingContract } from './contract/fencing.contract.js';
import { leasesContract } from './contract/leases.contract.js';
import { legacyFieldsContract } from './contract/legacy-fields.contract.js';
import { resumableTasksContract } from './contract/resumable-tasks.contract.js';
import { sharedTaskStoreContract } from './contract/shared-task-store.contract.js';
import { statusesContract } from './contract/statuses.contract.js';
import { sweepContract } from './contract/sweep.contract.js';
import { taskListingContract } from './contract/task-listing.contract.js';
import { taskMirrorsContract } from './contract/task-mirrors.contract.js';
import { taskQueriesContract } from './contract/task-queries.contract.js';
import type { HarnessFactory, StoreHarness } from './store-harness.interface.js';
import { globalTestApi, type TestApi } from './test-api.js';

/**
 * The behaviour every `TaskStore` must have (the core contract): creation under the caps, reads, every change and
 * its compare-and-set, fencing by attempt and checkpoints, concurrency (with a second instance over the same data),
 * expiry and the sweep, leases (renewed by their holder only) and their reclaim, the fields 2025-11-25 tasks add and
 * their input-channel claim, and the optional batch read `statuses` when the store has it; then the part of each
 * capability the store declares (`TaskListing`, `TaskQueries`, `TaskMirrors`, `ResumableTasks`, `SharedTaskStore`),
 * as `options` says. Runs against the store `open` builds (once
 * per suite; emptied before each test). Call it inside a `describe` of your test file:
 *
 * ```ts
 * import { taskStoreContract } from '@mcp-tasks/nestjs/testing';
 * describe('RedisTaskStore', () => taskStoreContract(openRedisHarness));
 * ```
 *
 * `test` is the framework's `{ describe, it, expect, beforeAll, afterAll, beforeEach }`
 * (default: the framework's globals — jest; vitest with `globals: true`). Each capability part is on by default
 * except `shared`: a store without a capability turns its part off (`{ queries: false }`, …), a shared one
 * turns `shared` on.
 * @publicApi
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
  fencingContract(h, test);
  concurrencyContract(h, test);
  sweepContract(h, test);
  leasesContract(h, test);
  legacyFieldsContract(h, test);
  statusesContract(h, test);
  if (options.ownerListing !== false) taskListingContract(h, test);
  if (options.queries !== false) taskQueriesContract(h, test);
  if (options.mirrors !== false) taskMirrorsContract(h, test);
  if (options.resumable !== false) resumableTasksContract(h, test);
  if (options.shared === true) sharedTaskStoreContract(h, test);
}

/**
 * Which capability parts `taskStoreContract` checks beyond the core contract every store must meet.
 * @publicApi
 */
export interface TaskStoreContractOptions {
  /**
   * Check `TaskQueries` (`listTasks`, `taskCounts`, `taskActivity`, read by the operator console).
   * @default true
   */
  queries?: boolean;
  /**
   * Check `TaskListing` (`listByOwner`, read by 2025-11-25 `tasks/list`).
   * @default true
   */
  ownerListing?: boolean;
  /**
   * Check `TaskMirrors`: the mirrors of upstream tasks (the `upstreams` option) — the `upstream` field and
   * `adoptLapsedMirrors` (a store without it passes `{ mirrors: false }` and cannot serve upstreams).
   * @default true
   */
  mirrors?: boolean;
  /**
   * Check `ResumableTasks`: tasks of tools with `resume` — the `resume` field, `adoptLapsedRuns` (one attempt more,
   * each task to one caller, failed after the last attempt) and `releaseLeases` (a store without them passes
   * `{ resumable: false }`; its tools with `resume` run as plain tasks).
   * @default true
   */
  resumable?: boolean;
  /**
   * Check `SharedTaskStore`: the store declares `sharedAcrossProcesses`, and `store` and `peer` (two instances over
   * the same data) see each other's writes. Turn it on for a store whose tasks other processes share.
   * @default false
   */
  shared?: boolean;
}
