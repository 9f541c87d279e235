import { Inject, Injectable } from '@nestjs/common';
import { InjectTaskStore } from '../decorators/inject.decorators.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskGuards, type TaskHandler } from '../pipeline/task-guards.js';
import { hasTaskListing, type TaskListing } from '../store/capabilities/task-listing.interface.js';
import { TaskStore } from '../store/task-store.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';
import { toLegacyTask, type LegacyTask } from './legacy-task.view.js';
import { LEGACY_LIST_PAGE } from './legacy.constants.js';
import { ListCursorCodec } from './list-cursor.codec.js';

/**
 * 2025-11-25 `tasks/list`: the caller's tasks, newest first, a page at a time, as that revision shapes them; offered
 * only when the store lists by owner. The session binding applies as it does to `tasks/get`.
 */
@Injectable()
export class LegacyTaskListHandler implements LegacyMethodHandler {
  private readonly listed: TaskHandler<Promise<TaskRecord>>;
  private readonly cursors: ListCursorCodec;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskStore() private readonly store: TaskStore,
    guards: TaskGuards,
  ) {
    this.listed = guards.protect(this, 'list', (task) => task);
    this.cursors = new ListCursorCodec(options.requestStateSecret);
  }

  /** Whether this server offers `tasks/list` (the store must list by owner: `TaskListing`). */
  offered(): boolean {
    return hasTaskListing(this.store);
  }

  async serve(req: LegacyRequest, x: LegacyExchange): Promise<void> {
    const owner = req.principal.key;
    const session = this.options.auth ? undefined : (req.session?.id ?? null);
    const cursor = req.params.cursor;
    const after = cursor === undefined ? undefined : this.cursors.open(cursor, owner, session);
    // The router sends tasks/list here only when the store lists (`offered`).
    const store = this.store as TaskStore & TaskListing;
    const page = await store.listByOwner({ owner, session, after, limit: LEGACY_LIST_PAGE + 1 }, Date.now());
    const tasks: LegacyTask[] = [];
    for (const task of page.slice(0, LEGACY_LIST_PAGE)) {
      // What the guards would refuse on tasks/get (scopes since lost, an app's own rule) is not listed either.
      const seen = await this.listed(task, req.principal).catch(() => undefined);
      if (seen) tasks.push(toLegacyTask(seen, this.options.pollInterval));
    }
    const last = page[LEGACY_LIST_PAGE - 1];
    const more = page.length > LEGACY_LIST_PAGE && last;
    x.reply(req.id).result({ tasks, ...(more ? { nextCursor: this.cursors.seal(last, owner, session) } : {}) });
  }
}
