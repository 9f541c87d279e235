import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module, Scope, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import {
  InjectTaskStore,
  McpTasksModule,
  McpTool,
  MemoryTaskStore,
  type McpTasksModuleOptions,
  type TaskStore,
} from '@mcp-tasks/nestjs';
import { call, getTask, rpc, TASKS } from './support/mcp-request.js';
import { createPlatformApp, PLATFORMS, type Platform } from './support/platforms.js';

@Injectable()
class PublicTools {
  @McpTool({ name: 'search', description: 'Public search', task: 'optional' })
  search(): string {
    return 'found';
  }
}
@Module({ providers: [PublicTools] })
class PublicToolsModule {}

@Injectable()
class AdminTools {
  @McpTool({ name: 'purge', description: 'Admin only', task: 'required' })
  async purge(): Promise<string> {
    await new Promise((r) => setTimeout(r, 60_000));
    return 'purged';
  }
}
/** The same provider under a second token: its tool must not be registered twice. */
const ADMIN_ALIAS = 'ADMIN_TOOLS_ALIAS';
@Module({ providers: [AdminTools, { provide: ADMIN_ALIAS, useExisting: AdminTools }] })
class AdminToolsModule {}

@Injectable({ scope: Scope.TRANSIENT })
class TransientTools {
  @McpTool({ name: 'fleeting', description: 'On a transient provider' })
  fleeting(): string {
    return 'x';
  }
}

/** Reaches a registration's store without importing McpTasksModule: needs `isGlobal`. */
@Injectable()
class StoreReader {
  constructor(@InjectTaskStore() readonly store: TaskStore) {}
}
@Module({ providers: [StoreReader], exports: [StoreReader] })
class ReaderModule {}

async function boot(platform: Platform, imports: unknown[]): Promise<INestApplication> {
  const ref = await Test.createTestingModule({ imports: imports as never[] }).compile();
  const app = createPlatformApp(ref, platform);
  await app.listen(0, '127.0.0.1');
  return app;
}

const names = async (app: INestApplication, path: string): Promise<string[]> =>
  (await rpc(app, 'tools/list', {}, { path })).body.result.tools.map((t: { name: string }) => t.name);

describe.each(PLATFORMS)('several MCP servers in one app (%s)', (platform) => {
  let app: INestApplication;
  const shared = new MemoryTaskStore();
  const server = (name: string, o: Partial<McpTasksModuleOptions>) =>
    McpTasksModule.forRoot({ server: { name, version: '1' }, pollInterval: 50, store: shared, ...o });
  beforeAll(async () => {
    app = await boot(platform, [
      server('public', { include: [PublicToolsModule], isGlobal: true } as Partial<McpTasksModuleOptions>),
      server('admin', { path: '/admin/mcp', include: [AdminToolsModule], maxTasks: 1, shutdownGrace: 50 }),
      PublicToolsModule,
      AdminToolsModule,
      ReaderModule,
    ]);
  });
  afterAll(() => app.close());

  it('each server exposes only the tools of the modules it names, each once', async () => {
    expect(await names(app, '/mcp')).toEqual(['search']);
    expect(await names(app, '/admin/mcp')).toEqual(['purge']);
    expect((await call(app, 'purge', {}, { caps: TASKS })).body.error).toMatchObject({ code: -32602 });
    const discover = await rpc(app, 'server/discover', {}, { path: '/admin/mcp' });
    expect(discover.body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'admin', version: '1' });
  });

  it("each has its own options; one server's task is not found on the other, even on a shared store", async () => {
    const created = await call(app, 'purge', {}, { caps: TASKS, path: '/admin/mcp' });
    const taskId = created.body.result.taskId as string;
    expect((await getTask(app, taskId, { path: '/admin/mcp' })).body.result.status).toBe('working');
    expect((await getTask(app, taskId)).body.error).toEqual({ code: -32602, message: 'Task not found' });
    // The admin server's own cap (maxTasks: 1) refuses a second task; the public server has none.
    const capped = await call(app, 'purge', {}, { caps: TASKS, path: '/admin/mcp' });
    expect(capped.body.error).toMatchObject({ code: -32600, message: expect.stringMatching(/Too many live tasks/) });
    expect((await call(app, 'search', {}, { caps: TASKS })).body.result.resultType).toBe('task');
  });

  it('isGlobal: a module that does not import McpTasksModule injects its store', () => {
    expect(app.get(StoreReader).store).toBe(shared);
  });

  it('without auth no metadata route is registered (the app may serve its own)', async () => {
    expect((await request(app.getHttpServer()).get('/.well-known/oauth-protected-resource/mcp')).status).toBe(404);
  });
});

describe('tool providers that cannot be served', () => {
  it('a transient provider fails startup, naming it', async () => {
    @Module({ providers: [TransientTools] })
    class TransientModule {}
    await expect(
      boot('express', [McpTasksModule.forRoot({ server: { name: 't', version: '1' } }), TransientModule]),
    ).rejects.toThrow(/@McpTool on TransientTools\.fleeting: the provider TransientTools is transient/);
  });

  it('two servers on one path fail startup, naming both', async () => {
    await expect(
      boot('fastify', [
        McpTasksModule.forRoot({ server: { name: 'one', version: '1' } }),
        McpTasksModule.forRoot({ server: { name: 'two', version: '1' } }),
      ]),
    ).rejects.toThrow('McpTasksModule: servers "one" and "two" are both at /mcp; give each registration its own path');
  });

  it('include must name modules', async () => {
    await expect(
      boot('express', [McpTasksModule.forRoot({ server: { name: 'x', version: '1' }, include: [] })]),
    ).rejects.toThrow('include must be a non-empty array of module classes');
  });
});
