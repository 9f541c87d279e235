import type { Logger } from '@nestjs/common';
import { stopReason, type TaskRunHandle } from '../context/task-run.handle.js';
import { isTerminal } from '../protocol/wire.interface.js';
import type { TaskStore } from '../store/task-store.interface.js';

/**
 * Renews the leases of the runs this instance holds, every `lease/3` (one slow or lost renewal does not cost a live
 * task), and stops a run whose lease the store did not renew: its task ended or is gone, or another instance took
 * it over (a resumable task whose lease lapsed while this instance stalled) — that run writes nothing more.
 */
export class RunLeasesRenewal {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: TaskStore,
    private readonly running: ReadonlyMap<string, TaskRunHandle>,
    private readonly owner: string,
    private readonly lease: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(this.lease / 3)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async renew(): Promise<void> {
    const ids: string[] = [];
    for (const [id, handle] of this.running) if (!handle.handedOver) ids.push(id);
    if (ids.length === 0) return;
    try {
      const renewed = await this.store.renewLeases(ids, this.owner, Date.now() + this.lease);
      // A store of an earlier release says nothing: every lease counts as renewed.
      if (!Array.isArray(renewed)) return;
      const kept = new Set(renewed);
      for (const id of ids) if (!kept.has(id)) await this.lost(id);
    } catch (err) {
      this.logger.warn(`lease renewal failed: ${(err as Error).message}`);
    }
  }

  /** Stops the run of `id`, whose lease was not renewed, for the reason the store now gives. */
  private async lost(id: string): Promise<void> {
    const handle = this.running.get(id);
    // A run that returned is writing its outcome: the store's answer to that write says how it ended.
    if (!handle || handle.returned) return;
    const task = await this.store.get(id, Date.now());
    if (!task || isTerminal(task.status)) return handle.abort(stopReason(task?.status));
    if ((task.attempt ?? 1) !== handle.attempt || task.leaseOwner !== this.owner) handle.handOver('lease-lost');
  }
}
