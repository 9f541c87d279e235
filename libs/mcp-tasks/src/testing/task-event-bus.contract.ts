import { durationProblem } from '../common/duration.rule.js';
import type { BusHarness, BusHarnessFactory } from './bus-harness.interface.js';
import type { BusTrio } from './bus-contract/bus-probes.js';
import { deliveryContract } from './bus-contract/delivery.contract.js';
import { followActiveContract } from './bus-contract/follow-active.contract.js';
import { payloadContract } from './bus-contract/payload.contract.js';
import { rejoinContract } from './bus-contract/rejoin.contract.js';
import { targetingContract } from './bus-contract/targeting.contract.js';
import { globalTestApi, type TestApi } from './test-api.js';

/**
 * The behaviour every `TaskEventBus` must have, checked on three instances over one broker: events reach the
 * subscribers of every instance (the publisher's own at once, echoes dropped, once each), unsubscribe stops a
 * handler; with `follow`, only instances following one of an event's topics hear it, follows counted per topic, a
 * session's topic heard by its followers, a follow's `onActive` (when `follow` takes it) called once it is in
 * effect, and again once an instance whose link to the broker was cut follows again (when the harness can `cut`);
 * events without topics reach everyone; a question's answer arrives whole; one publisher's events about a task keep
 * their order; `health()`, when there, says connected. Call it inside a `describe`:
 *
 * ```ts
 * import { taskEventBusContract } from '@mcp-tasks/nestjs/testing';
 * describe('KafkaTaskEventBus', () => taskEventBusContract(openKafkaBuses));
 * ```
 *
 * `test` is the framework's functions (default: its globals). A bus in one process gives the same object for
 * each instance.
 * @publicApi
 */
export function taskEventBusContract(
  open: BusHarnessFactory,
  test: TestApi = globalTestApi(),
  options: TaskEventBusContractOptions = {},
): void {
  const settle = options.settle ?? 300;
  // A wait the checks sleep on: a mistyped one would make every negative check pass or hang.
  const problem = durationProblem('settle', settle, { min: 1, max: 60_000 });
  if (problem) throw new Error(`taskEventBusContract: ${problem}`);
  let harness: BusHarness | undefined;
  let buses: BusTrio | undefined;
  const trio = (): BusTrio => {
    if (!buses) throw new Error('bus harness failed to open');
    return buses;
  };
  test.beforeAll(async () => {
    harness = await open();
    const cut = harness.cut?.bind(harness);
    buses = { a: await harness.open(), b: await harness.open(), c: await harness.open(), ...(cut ? { cut } : {}) };
  }, 60_000);
  test.afterAll(async () => harness?.close());
  deliveryContract(trio, settle, test);
  targetingContract(trio, settle, test);
  followActiveContract(trio, settle, test);
  rejoinContract(trio, settle, test);
  payloadContract(trio, settle, test);
}

/**
 * How `taskEventBusContract` waits.
 * @publicApi
 */
export interface TaskEventBusContractOptions {
  /**
   * How long a check waits for an event that must not arrive (or a second copy), in ms: longer than the broker's
   * delivery takes on the machine the suite runs on; 1 to 60000.
   * @default 300
   */
  settle?: number;
}
