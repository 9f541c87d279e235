import type { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TaskRunHandle } from '../context/task-run.handle.js';
import type { RunChange } from '../context/task-tool.context.js';
import type { ResumableTasks } from '../store/capabilities/resumable-tasks.interface.js';
import type { UpdateOutcome } from '../store/task.record.js';
import { stoppedChange } from './task-ending.js';

/**
 * Ends one task `failed` on shutdown, on its own: a store error is logged and the write retried until `until`;
 * what still cannot be written is left to another instance's lease reaper. Never throws.
 */
export async function endOnShutdown(
  id: string,
  handle: TaskRunHandle,
  write: (change: RunChange) => Promise<UpdateOutcome | undefined>,
  until: number,
  logger: Logger,
): Promise<void> {
  for (let wait = 50; ; wait = Math.min(wait * 2, 1_000)) {
    try {
      await write(stoppedChange('shutdown'));
      break;
    } catch (err) {
      const why = (err as Error).message;
      if (Date.now() + wait > until) {
        logger.error(`task ${id}: not ended on shutdown (${why}); the lease reaper of another instance will`);
        break;
      }
      logger.warn(`task ${id}: not ended on shutdown yet (${why}); retrying in ${wait} ms`);
      await sleep(wait);
    }
  }
  handle.abort('shutdown');
}

/**
 * Hands resumable tasks over on shutdown: their runs stop (their outcomes dropped), then their leases are released,
 * so another instance resumes them on its next look rather than a lease later. A store error is logged: the leases
 * then lapse on their own, and the tasks resume after that. Never throws.
 */
export async function releaseOnShutdown(
  store: ResumableTasks,
  runs: Array<[string, TaskRunHandle]>,
  owner: string,
  logger: Logger,
): Promise<void> {
  if (runs.length === 0) return;
  for (const [, handle] of runs) handle.handOver('shutdown');
  try {
    await store.releaseLeases(
      runs.map(([id]) => id),
      owner,
    );
  } catch (err) {
    logger.warn(
      `resumable tasks not handed over on shutdown (${(err as Error).message}); they resume once their leases lapse`,
    );
  }
}
