import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpTasksModule, McpTool, type McpTasksModuleOptions } from '@mcp-tasks/nestjs';
import { FixtureToolsModule } from './fixtures/fixture-app.js';
import { call, rpc, TASKS } from './support/mcp-request.js';

@Injectable()
class ConfigService {
  get(): McpTasksModuleOptions {
    return { server: { name: 'async', version: '2' }, path: '/rpc', pollInterval: 77 };
  }
}
@Module({ providers: [ConfigService], exports: [ConfigService] })
class ConfigModule {}

@Injectable()
class OptionsFactory {
  createMcpTasksOptions(): McpTasksModuleOptions {
    return { server: { name: 'by-class', version: '3' } };
  }
}

@Injectable()
class DuplicateA {
  @McpTool({ name: 'same', description: 'a' })
  a(): string {
    return 'a';
  }
}
@Injectable()
class DuplicateB {
  @McpTool({ name: 'same', description: 'b' })
  b(): string {
    return 'b';
  }
}
@Injectable()
class BadPrepare {
  @McpTool({ description: 'x', prepare: 'missing' })
  x(): string {
    return 'x';
  }
}

async function boot(imports: unknown[]): Promise<INestApplication> {
  const ref = await Test.createTestingModule({ imports: imports as never[] }).compile();
  const app = ref.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return app;
}

describe('module setup', () => {
  it('forRootAsync with useFactory + inject + imports: options (path, pollInterval) take effect', async () => {
    const app = await boot([
      McpTasksModule.forRootAsync({
        imports: [ConfigModule],
        inject: [ConfigService],
        useFactory: (c: ConfigService) => c.get(),
      }),
      FixtureToolsModule,
    ]);
    try {
      const res = await call(app, 'wait', { ms: 1 }, { caps: TASKS, path: '/rpc' });
      expect(res.body.result).toMatchObject({ resultType: 'task', pollIntervalMs: 77 });
      const discover = await rpc(app, 'server/discover', {}, { path: '/rpc' });
      expect(discover.body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'async', version: '2' });
      expect((await rpc(app, 'server/discover')).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('forRootAsync with useClass applies the defaults too', async () => {
    const app = await boot([McpTasksModule.forRootAsync({ useClass: OptionsFactory }), FixtureToolsModule]);
    try {
      const res = await call(app, 'wait', { ms: 1 }, { caps: TASKS });
      expect(res.body.result).toMatchObject({ pollIntervalMs: 1000, ttlMs: 3_600_000 });
    } finally {
      await app.close();
    }
  });

  it('bad options fail at startup with the option named', async () => {
    await expect(
      boot([McpTasksModule.forRoot({ server: { name: 'x', version: '1' }, maxPerPrincipal: 0 })]),
    ).rejects.toThrow(/maxPerPrincipal/);
  });

  it('duplicate tool names fail at startup, naming both methods', async () => {
    @Module({ providers: [DuplicateA, DuplicateB] })
    class Dups {}
    await expect(boot([McpTasksModule.forRoot({ server: { name: 'x', version: '1' } }), Dups])).rejects.toThrow(
      /duplicate tool name "same".*DuplicateA\.a.*DuplicateB\.b/,
    );
  });

  it('a prepare naming a missing method fails at startup', async () => {
    @Module({ providers: [BadPrepare] })
    class Bad {}
    await expect(boot([McpTasksModule.forRoot({ server: { name: 'x', version: '1' } }), Bad])).rejects.toThrow(
      /prepare method "missing"/,
    );
  });
});
