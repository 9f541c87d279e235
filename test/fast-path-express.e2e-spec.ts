import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Injectable,
  Module,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Request, Response } from 'express';
import { McpTool, type McpTasksModuleOptions } from '@mcp-tasks/nestjs';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { call, getTask, TASKS, waitForTask } from './support/mcp-request.js';

/**
 * A guard written for Express controllers: Express's own request and response methods. On the fast path it must get
 * Express's objects, though the fast path defers making them until the app's code may read them.
 */
@Injectable()
class ExpressStyleGuard implements CanActivate {
  canActivate(ec: ExecutionContext): boolean {
    const req = ec.switchToHttp().getRequest<Request>();
    const res = ec.switchToHttp().getResponse<Response>();
    res.header('x-guard-saw', `${ec.getHandler().name}|${req.get('x-probe')}|${req.ip ? 'ip' : 'no-ip'}`);
    return true;
  }
}

@Injectable()
class ProbeTools {
  @McpTool({ name: 'plain', description: 'No app code around it.', task: 'optional' })
  plain(): string {
    return 'plain';
  }

  @UseGuards(ExpressStyleGuard)
  @McpTool({ name: 'guarded_express', description: 'Its own guard reads Express objects.' })
  guarded(): string {
    return 'guarded';
  }
}

@Module({ providers: [ProbeTools] })
class ProbeToolsModule {}

@Module({ providers: [{ provide: APP_GUARD, useClass: ExpressStyleGuard }] })
class AppGuardModule {}

const appWith = (appGuard: boolean, subject?: McpTasksModuleOptions['subject']): Promise<INestApplication> =>
  createFixtureApp({ fastPath: true, subject }, [ProbeToolsModule, ...(appGuard ? [AppGuardModule] : [])]);

const probe = { headers: { 'x-probe': 'p1' } };

describe('fastPath on Express: enhancers get Express objects, made only when app code runs', () => {
  describe('a tool with its own guard, no app-wide enhancers', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await appWith(false);
    });
    afterAll(() => app.close());

    it("the tool's guard reads req.get(), req.ip and writes res.header()", async () => {
      const res = await call(app, 'guarded_express', {}, probe);
      expect(res.body.result.content).toEqual([{ type: 'text', text: 'guarded' }]);
      expect(res.headers['x-guard-saw']).toBe('guarded|p1|ip');
    });

    it('a tool and task access without app code answer the same wire', async () => {
      const sync = await call(app, 'plain', {}, probe);
      expect(sync.body.result.content).toEqual([{ type: 'text', text: 'plain' }]);
      expect(sync.headers['x-guard-saw']).toBeUndefined();
      const created = await call(app, 'plain', {}, { caps: TASKS, ...probe });
      expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
      expect(await waitForTask(app, created.body.result.taskId)).toMatchObject({ status: 'completed' });
      const got = await getTask(app, created.body.result.taskId);
      expect(got.status).toBe(200);
      expect(got.body.result.status).toBe('completed');
    });
  });

  describe('an app-wide guard (APP_GUARD)', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await appWith(true);
    });
    afterAll(() => app.close());

    it('reads Express objects on a tool call and on tasks/get', async () => {
      const created = await call(app, 'plain', {}, { caps: TASKS, ...probe });
      expect(created.headers['x-guard-saw']).toBe('plain|p1|ip');
      const got = await getTask(app, created.body.result.taskId, probe);
      expect(got.status).toBe(200);
      expect(got.headers['x-guard-saw']).toBe('handle|p1|ip');
    });
  });

  describe('a `subject` function written for Express', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await appWith(false, (req) => (req as unknown as Request).get('x-tenant') ?? 'none');
    });
    afterAll(() => app.close());

    it("reads the request through Express's methods: tasks belong to the tenant it names", async () => {
      const created = await call(app, 'plain', {}, { caps: TASKS, headers: { 'x-tenant': 'acme' } });
      expect(created.status).toBe(200);
      const taskId = created.body.result.taskId as string;
      expect((await getTask(app, taskId, { headers: { 'x-tenant': 'acme' } })).status).toBe(200);
      const other = await getTask(app, taskId, { headers: { 'x-tenant': 'globex' } });
      expect(other.body.error.code).toBe(-32602);
    });
  });
});
