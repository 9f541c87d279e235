import { IntrinsicException } from '@nestjs/common';

/**
 * Rejects a pending `sample`/`roots` (and any later ask) once the run's task is cancelled.
 * @publicApi
 */
export class TaskCancelledError extends IntrinsicException {
  constructor() {
    super('The task was cancelled');
    this.name = 'TaskCancelledError';
  }
}
