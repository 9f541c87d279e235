import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import {
  Injectable,
  Module,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type Type,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import {
  McpExecutionContext,
  McpScopesGuard,
  MemoryTaskStore,
  TaskOwnershipGuard,
  type Principal,
  type TaskRecord,
} from '@mcp-tasks/nestjs';
import { createAuthApp } from './fixtures/auth-app.js';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { listen } from './support/listen.js';
import { call, cancelTask, getTask, TASKS, waitForTask } from './support/mcp-request.js';
import { hs256 } from './support/tokens.js';

const as = (user: string) => ({ headers: { 'x-user': user } });
const byUser = (req: IncomingMessage) => String(req.headers['x-user'] ?? 'nobody');

/** `admin` may read and cancel anyone's task; everyone else only their own. */
@Injectable()
class AdminOwnership extends TaskOwnershipGuard {
  protected override isOwner(task: TaskRecord, principal: Principal): boolean {
    return principal.subject === 'admin' || super.isOwner(task, principal);
  }
}

/** `staff` tokens count as holding files:write too. */
@Injectable()
class StaffScopes extends McpScopesGuard {
  protected override grantedScopes(ec: ExecutionContext): string[] {
    const staff = McpExecutionContext.principal(ec).subject === 'staff';
    return [...super.grantedScopes(ec), ...(staff ? ['files:write'] : [])];
  }
}

describe('guards option: subclasses of the library guards', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createFixtureApp({ subject: byUser, guards: { ownership: AdminOwnership } });
  });
  afterAll(() => app.close());

  it('an ownership subclass decides who sees a task: get, listen and cancel', async () => {
    const created = await call(app, 'wait', { ms: 60_000 }, { caps: TASKS, ...as('alice') });
    const taskId = created.body.result.taskId as string;
    expect((await getTask(app, taskId, as('admin'))).body.result).toMatchObject({ taskId, status: 'working' });
    expect((await getTask(app, taskId, as('bob'))).body.error).toEqual({ code: -32602, message: 'Task not found' });
    const s = await listen(app, { taskIds: [taskId] }, { caps: TASKS, ...as('admin') });
    const ack = await s.next((f) => f.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params.notifications).toEqual({ taskIds: [taskId] });
    s.close();
    expect((await cancelTask(app, taskId, as('admin'))).body.result).toMatchObject({ resultType: 'complete' });
    expect((await getTask(app, taskId, as('alice'))).body.result.status).toBe('cancelled');
  });
});

describe('guards option: a scopes subclass', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createAuthApp({ guards: { scopes: StaffScopes } });
  });
  afterAll(() => app.close());

  it('grants what its hook grants, and refuses the rest with 403 insufficient_scope', async () => {
    const staff = { headers: { authorization: `Bearer ${hs256({ sub: 'staff', scope: 'files:read' })}` } };
    const alice = { headers: { authorization: `Bearer ${hs256({ sub: 'alice', scope: 'files:read' })}` } };
    expect((await call(app, 'write_file', {}, staff)).body.result.content).toEqual([{ type: 'text', text: 'written' }]);
    const refused = await call(app, 'write_file', {}, alice);
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toMatch(/error="insufficient_scope", scope="files:read files:write"/);
  });
});

/** An app-wide guard: interns may not cancel tasks; it records which MCP requests it saw. */
@Injectable()
class NoCancelForInterns implements CanActivate {
  static seen: string[] = [];
  canActivate(ec: ExecutionContext): boolean {
    const req = ec.switchToHttp().getRequest<IncomingMessage>();
    NoCancelForInterns.seen.push(
      `${ec.getType()}:${McpExecutionContext.method(ec)}:${ec.getHandler().name}:${req.method}`,
    );
    if (!McpExecutionContext.isMcp(ec)) return true;
    return !(
      McpExecutionContext.method(ec) === 'tasks/cancel' && McpExecutionContext.principal(ec).subject === 'intern'
    );
  }
}

const withAppGuard = (guard: Type<CanActivate>) => {
  @Module({ providers: [{ provide: APP_GUARD, useClass: guard }] })
  class AppGuardModule {}
  return AppGuardModule;
};

describe.each([false, true])('app-wide guards (APP_GUARD) on tool calls and task access (fastPath %s)', (fastPath) => {
  let app: INestApplication;
  const store = new MemoryTaskStore();
  beforeAll(async () => {
    // The intern's task stays running: a short grace lets the app close at once.
    app = await createFixtureApp({ store, subject: byUser, shutdownGrace: 50, fastPath }, [
      withAppGuard(NoCancelForInterns),
    ]);
  });
  afterAll(() => app.close());

  it('run once per MCP request, in an mcp context of [req, res, McpCall], with or without fastPath', async () => {
    NoCancelForInterns.seen = [];
    const created = await call(app, 'wait', { ms: 60_000 }, { caps: TASKS, ...as('intern') });
    const taskId = created.body.result.taskId as string;
    expect((await getTask(app, taskId, as('intern'))).body.result.status).toBe('working');
    const refused = await cancelTask(app, taskId, as('intern'));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: -32600, message: 'Forbidden resource' });
    expect((await store.get(taskId, Date.now()))?.status).toBe('working');
    expect(NoCancelForInterns.seen).toEqual([
      'mcp:tools/call:wait:POST',
      'mcp:tasks/get:handle:POST',
      'mcp:tasks/cancel:handle:POST',
    ]);
    // The owner guard still runs after the app's: someone else's cancel is "not found", not forbidden.
    expect((await cancelTask(app, taskId, as('mentor'))).body.error.message).toBe('Task not found');
    const done = await call(app, 'wait', { ms: 1 }, { caps: TASKS, ...as('mentor') });
    expect((await waitForTask(app, done.body.result.taskId, undefined, 5000, as('mentor'))).status).toBe('completed');
    expect((await cancelTask(app, done.body.result.taskId, as('mentor'))).body.result.resultType).toBe('complete');
  });
});
