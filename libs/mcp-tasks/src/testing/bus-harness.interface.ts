import type { TaskEventBus } from '../events/task-event-bus.interface.js';

/**
 * Instances of one bus over one broker, as the bus contract sees them.
 * @publicApi
 */
export interface BusHarness {
  /**
   * One more instance on the broker the others use, started (`onModuleInit` run, when it has one). A bus in one
   * process only gives the same object every time.
   */
  open(): Promise<TaskEventBus>;
  /** Stops every instance `open` gave (and the broker's clients it made). */
  close(): Promise<void>;
  /**
   * Cuts the link between `bus` (one `open` gave) and the broker — its connections dropped, new ones refused — while
   * the other instances keep theirs, as a network fault or a broker-side kill of that instance's connections would;
   * resolves with the function that lets it connect again. Optional: without it the contract's re-join checks are
   * skipped (as for a bus in one process, which has no link to lose).
   */
  cut?(bus: TaskEventBus): Promise<() => Promise<void>>;
}

/**
 * Opens a fresh `BusHarness`: what `taskEventBusContract` is given.
 * @publicApi
 */
export type BusHarnessFactory = () => Promise<BusHarness>;
