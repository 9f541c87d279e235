import { ForbiddenException, Inject, Injectable, type CanActivate, type Type } from '@nestjs/common';
import { isObservable, lastValueFrom } from 'rxjs';
import type { Principal } from '../common/principal.interface.js';
import { TaskOwnershipGuard } from '../guards/task-ownership.guard.js';
import type { TaskRecord } from '../store/task.record.js';
import { TaskAccessContext } from './task-access.context.js';

/** A handler of an access to a task, called with what its guard sees: `(task, principal, ...)`. */
export type TaskHandler<R> = (task: TaskRecord, principal: Principal, ...rest: any[]) => R;

/**
 * Puts the handlers of `tasks/get|update|cancel` and listening behind the ownership guard (`guards.ownership`), in
 * an `ExecutionContext` of type `mcp-task` with the arguments `[task, principal]`. The app's global guards are not
 * run here: they ran once for the whole MCP request (see `AppEnhancers`). A guard that returns `false` refuses with
 * 403; one that throws refuses with what it threw.
 */
@Injectable()
export class TaskGuards {
  constructor(@Inject(TaskOwnershipGuard) private readonly ownership: CanActivate) {}

  /** `handler` behind the guard; `name` is the handler's name in the `ExecutionContext`. */
  protect<R>(instance: object, name: string, handler: TaskHandler<R>): TaskHandler<Promise<Awaited<R>>> {
    const named = Object.defineProperty((...args: unknown[]) => args, 'name', { value: name });
    const cls = instance.constructor as Type;
    // No `async` function: a guard that decides at once (the default one does) costs no promise but the answer's.
    return (task, principal, ...rest): Promise<Awaited<R>> => {
      const pass = (allowed: unknown): R => {
        if (!allowed) throw new ForbiddenException('Forbidden resource');
        return handler(task, principal, ...rest);
      };
      try {
        const verdict = this.ownership.canActivate(new TaskAccessContext(cls, named, task, principal));
        const later = isObservable(verdict) ? lastValueFrom(verdict) : isThenable(verdict) ? verdict : undefined;
        return (later ? Promise.resolve(later).then(pass) : Promise.resolve(pass(verdict))) as Promise<Awaited<R>>;
      } catch (err) {
        return Promise.reject(err as Error);
      }
    };
  }
}

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  !!v && typeof (v as { then?: unknown }).then === 'function';
