import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Controller,
  Get,
  Headers,
  Inject,
  Injectable,
  Module,
  Query,
  Res,
  Scope,
  UseGuards,
  type CanActivate,
} from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { McpTasksModule, McpTool } from '@mcp-tasks/nestjs';
import { BAD_VALUES, createUsersApp, errors, PNG } from './fixtures/users-app.js';
import { initialize, legacyHeaders, post, request as legacyRequest } from './support/legacy-wire.js';
import { call, rpc, TASKS, waitForTask } from './support/mcp-request.js';
import { connectLegacyClient, connectModernClient } from './support/official-client.js';

const urlOf = (app: INestApplication) => {
  const { port } = app.getHttpServer().address() as { port: number };
  return new URL(`http://127.0.0.1:${port}/mcp`);
};

const ALICE = { id: 1, username: 'alice', firstName: 'Alice', _version: 3, profile: { bio: 'likes tea' } };
const USERS = [
  ALICE,
  {
    id: 2,
    username: 'bob',
    firstName: 'Bob',
    _version: 3,
    friends: [{ id: 3, username: 'carol', firstName: 'Carol', _version: 3 }],
  },
];
const SECRETS = /hash-of-|secret|@x\.test/;

/** The error lines logged since `from`. */
const loggedSince = (from: number) => errors.slice(from).join('\n');

describe('what tool methods return, as results (an existing app’s service and controller)', () => {
  let app: INestApplication;
  let url: URL;
  beforeAll(async () => {
    app = await createUsersApp();
    url = urlOf(app);
  });
  afterAll(() => app.close());

  describe('entities and plain data', () => {
    it('an array of entities is structuredContent plus its JSON as text; @Exclude() columns never leave', async () => {
      const res = await call(app, 'findAll');
      const { _meta, ...result } = res.body.result;
      expect(result).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: JSON.stringify(USERS) }],
        structuredContent: USERS,
      });
      expect(JSON.stringify(res.body)).not.toMatch(SECRETS);
    });

    it('the same inside a task', async () => {
      const res = await call(app, 'findAll', {}, { caps: TASKS });
      const task = await waitForTask(app, res.body.result.taskId);
      expect(task.status).toBe('completed');
      expect(task.result.structuredContent).toEqual(USERS);
      expect(JSON.stringify(task)).not.toMatch(SECRETS);
    });

    it('the official 2026-07-28 client reads it without a schema error', async () => {
      const client = await connectModernClient(url);
      try {
        const result = await client.callTool({ name: 'findAll', arguments: {} });
        expect(result.structuredContent).toEqual(USERS);
        const one = await client.callTool({ name: 'findOne', arguments: { username: 'alice' } });
        expect(one.structuredContent).toEqual(ALICE);
      } finally {
        await client.close();
      }
    });

    it('@SerializeOptions() on the method applies (groups expose a field)', async () => {
      const res = await call(app, 'asAdmin');
      expect(res.body.result.structuredContent).toEqual({ ...ALICE, email: 'alice@x.test' });
      expect(JSON.stringify(res.body)).not.toMatch(/hash-of-|secret/);
    });

    it('undefined (a void method) is an empty result', async () => {
      const { _meta, ...result } = (await call(app, 'nothing')).body.result;
      expect(result).toEqual({ resultType: 'complete', content: [] });
      const task = await call(app, 'nothing', {}, { caps: TASKS });
      expect((await waitForTask(app, task.body.result.taskId)).result).toEqual({ resultType: 'complete', content: [] });
    });

    it('a Buffer of an image is an image block; audioContent() an audio block', async () => {
      expect((await call(app, 'picture')).body.result.content).toEqual([
        { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
      ]);
      expect((await call(app, 'voice')).body.result.content).toEqual([
        { type: 'audio', data: Buffer.from('RIFF').toString('base64'), mimeType: 'audio/wav' },
      ]);
    });
  });

  describe('output', () => {
    it('tools/list shows outputSchema from the DTO (nested DTOs under $defs); none without output', async () => {
      const tools = (await rpc(app, 'tools/list')).body.result.tools as Array<Record<string, any>>;
      const byName = (name: string) => tools.find((t) => t.name === name)!;
      expect(byName('findOne').outputSchema).toMatchObject({
        type: 'object',
        properties: { id: { type: 'integer' }, profile: { $ref: '#/$defs/ProfileDto' } },
        required: ['id', 'username', 'firstName'],
        $defs: { ProfileDto: { type: 'object', properties: { bio: { type: 'string' } } } },
      });
      expect(byName('list').outputSchema).toMatchObject({ type: 'array', items: { type: 'object' } });
      expect(byName('findAll').outputSchema).toBeUndefined();
    });

    it('a result matching output is sent', async () => {
      const res = await call(app, 'findOne', { username: 'alice' });
      expect(res.body.result.structuredContent).toEqual(ALICE);
      expect((await call(app, 'list')).body.result.structuredContent).toEqual(USERS);
    });

    it('a result not matching output is -32603, logged with the tool name and why, never sent', async () => {
      const from = errors.length;
      const res = await call(app, 'broken', {}, { id: 'b1' });
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 'b1', error: { code: -32603, message: 'Internal error' } });
      const log = loggedSince(from);
      expect(log).toMatch(/tool broken \(UsersService\.broken\).*id: must be an integer number/);
      expect(log).toMatch(/; it returned \{ id: 'one', username: 'x' \}/);
      // No user found: no structuredContent, which output requires.
      const none = await call(app, 'findOne', { username: 'nobody' });
      expect(none.body.error.code).toBe(-32603);
      expect(loggedSince(from)).toMatch(/tool findOne .*no structuredContent, and the tool declares output UserDto/);
    });

    it('the log shows an entity as it would have been sent: no @Exclude()d column', async () => {
      const from = errors.length;
      expect((await call(app, 'profileOf')).body.error.code).toBe(-32603);
      expect(loggedSince(from)).toMatch(
        /tool profileOf .*bio: must be a string; it returned \{ id: 1, username: 'alice'/,
      );
      expect(loggedSince(from)).not.toMatch(SECRETS);
    });

    it('in a task: the task fails with -32603', async () => {
      const res = await call(app, 'broken', {}, { caps: TASKS });
      const task = await waitForTask(app, res.body.result.taskId);
      expect(task).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
      expect(task.result).toBeUndefined();
    });

    it('an MRTR round, then the entity as structuredContent', async () => {
      const caps = { elicitation: {} };
      const r1 = await call(app, 'pick', {}, { caps });
      expect(r1.body.result.resultType).toBe('input_required');
      const r2 = await rpc(
        app,
        'tools/call',
        {
          name: 'pick',
          arguments: {},
          inputResponses: { who: { action: 'accept', content: { username: 'alice' } } },
          requestState: r1.body.result.requestState,
        },
        { caps },
      );
      expect(r2.body.result).toMatchObject({ resultType: 'complete' });
      expect(r2.body.result.structuredContent).toEqual(ALICE);
      expect(JSON.stringify(r2.body)).not.toMatch(SECRETS);
    });
  });

  describe('what cannot be a result', () => {
    it.each(BAD_VALUES)('%s: -32603 in the request, logged with the tool name and the value', async (what) => {
      const from = errors.length;
      const res = await call(app, 'bad', { what }, { id: `bad-${what}` });
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: `bad-${what}`,
        error: { code: -32603, message: 'Internal error' },
      });
      expect(loggedSince(from)).toMatch(
        /tool bad \(UsersService\.bad\) returned what cannot be its result: .*; it returned /,
      );
    });

    it.each(BAD_VALUES)('%s: a task fails with -32603', async (what) => {
      const res = await call(app, 'bad', { what }, { caps: TASKS });
      const task = await waitForTask(app, res.body.result.taskId);
      expect(task).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
    });

    it('what the log says', async () => {
      const from = errors.length;
      await call(app, 'bad', { what: 'circular' });
      await call(app, 'bad', { what: 'blocks' });
      await call(app, 'bad', { what: 'bytes' });
      await call(app, 'bad', { what: 'function' });
      const log = loggedSince(from);
      expect(log).toMatch(/circular or nested deeper than 64 levels; it returned <ref \*1> \{ name: 'loop'/);
      expect(log).toMatch(/content\[0\] is not a content block: a text block needs text/);
      expect(log).toMatch(/a Buffer of 3 bytes .*imageContent\(bytes, mimeType\)/);
      expect(log).toMatch(/a function is not a tool result; it returned \[Function: function\]/);
    });
  });

  describe('controller methods', () => {
    it('a controller method is a tool: @Param() reads its argument; the route still answers', async () => {
      const res = await call(app, 'user_by_path', { username: 'alice' });
      expect(res.body.result.structuredContent).toEqual(ALICE);
      const http = await request(app.getHttpServer()).get('/users/bob');
      expect(http.status).toBe(200);
      expect(http.body.username).toBe('bob');
    });
  });

  describe('2025-11-25 clients', () => {
    it('the official client: an array goes as { result: [...] }; an array outputSchema is wrapped alike', async () => {
      const { client } = await connectLegacyClient(url);
      try {
        const tools = (await client.listTools()).tools;
        expect(tools.find((t) => t.name === 'list')!.outputSchema).toMatchObject({
          type: 'object',
          properties: { result: { type: 'array' } },
          required: ['result'],
        });
        const all = await client.callTool({ name: 'findAll', arguments: {} });
        expect(all.structuredContent).toEqual({ result: USERS });
        const listed = await client.callTool({ name: 'list', arguments: {} });
        expect(listed.structuredContent).toEqual({ result: USERS });
        const one = await client.callTool({ name: 'findOne', arguments: { username: 'alice' } });
        expect(one.structuredContent).toEqual(ALICE);
      } finally {
        await client.close();
      }
    });

    it('a 2025-11-25 task: tasks/result carries the wrapped array; a bad value fails the task', async () => {
      const { session } = await initialize(url, {});
      const headers = legacyHeaders(session);
      const created = await post(
        url,
        legacyRequest('tools/call', { name: 'findAll', arguments: {}, task: {} }),
        headers,
      );
      const taskId = created.body.result.task.taskId as string;
      const done = await post(url, legacyRequest('tasks/result', { taskId }), headers);
      expect(done.body.result.structuredContent).toEqual({ result: USERS });
      expect(JSON.stringify(done.body)).not.toMatch(SECRETS);
      const bad = await post(
        url,
        legacyRequest('tools/call', { name: 'bad', arguments: { what: 'bigint' }, task: {} }),
        headers,
      );
      const failed = await post(url, legacyRequest('tasks/result', { taskId: bad.body.result.task.taskId }), headers);
      expect(failed.body.error).toEqual({ code: -32603, message: 'Internal error' });
    });
  });
});

describe('the serializer option', () => {
  it('class-transformer options for every tool (here: excludePrefixes)', async () => {
    const app = await createUsersApp({ serializer: { excludePrefixes: ['_'] } });
    try {
      const res = await call(app, 'findOne', { username: 'alice' });
      expect(res.body.result.structuredContent).toEqual({
        id: 1,
        username: 'alice',
        firstName: 'Alice',
        profile: { bio: 'likes tea' },
      });
    } finally {
      await app.close();
    }
  });

  it('must be an object', async () => {
    await expect(createUsersApp({ serializer: 'groups' as never })).rejects.toThrow(
      'McpTasksModule: invalid options: serializer must be class-transformer options (an object)',
    );
  });
});

describe('a request-scoped controller method as a tool', () => {
  @Controller({ path: 'whoami', scope: Scope.REQUEST })
  class WhoAmIController {
    constructor(@Inject(REQUEST) private readonly req: { headers: Record<string, string> }) {}

    @Get()
    @McpTool({ description: 'Who asks' })
    who(@Headers('X-Caller') caller: string, @Query() query: Record<string, unknown>) {
      return { caller, fromRequest: this.req.headers['x-caller'], query };
    }
  }
  @Module({ controllers: [WhoAmIController] })
  class WhoAmIModule {}

  it('gets its own instance per call; @Headers() reads the HTTP request, @Query() the arguments', async () => {
    const ref = await Test.createTestingModule({
      imports: [McpTasksModule.forRoot({ server: { name: 'who', version: '1' } }), WhoAmIModule],
    }).compile();
    const app = ref.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    try {
      const res = await call(app, 'who', { n: 1 }, { headers: { 'x-caller': 'ada' } });
      expect(res.body.result.structuredContent).toEqual({ caller: 'ada', fromRequest: 'ada', query: { n: 1 } });
    } finally {
      await app.close();
    }
  });
});

describe('@McpTool where Nest would not call it as a tool', () => {
  const start = async (module: new () => object) => {
    const ref = await Test.createTestingModule({
      imports: [McpTasksModule.forRoot({ server: { name: 's', version: '1' } }), module],
    }).compile();
    const app = ref.createNestApplication({ logger: false });
    try {
      await app.init();
    } finally {
      await app.close();
    }
  };

  it('on a controller method taking @Res(): fails at startup naming the class, method and parameter', async () => {
    @Controller('files')
    class FilesController {
      @Get()
      @McpTool({ description: 'Streams a file' })
      download(@Res() res: unknown) {
        return res;
      }
    }
    @Module({ controllers: [FilesController] })
    class FilesModule {}
    await expect(start(FilesModule)).rejects.toThrow(
      'McpTasksModule: @McpTool on FilesController.download: parameter 0 takes a route decorator a tool call has no',
    );
  });

  it('on a guard (an enhancer Nest creates per use): fails at startup naming the class and method', async () => {
    @Injectable()
    class AuditGuard implements CanActivate {
      canActivate() {
        return true;
      }
      @McpTool({ description: 'Audits' })
      audit() {
        return 'audited';
      }
    }
    @Controller('things')
    @UseGuards(AuditGuard)
    class ThingsController {
      @Get()
      list() {
        return [];
      }
    }
    @Module({ controllers: [ThingsController] })
    class ThingsModule {}
    await expect(start(ThingsModule)).rejects.toThrow(
      'McpTasksModule: @McpTool on AuditGuard.audit: AuditGuard is a guard, interceptor, pipe, filter or middleware',
    );
  });
});
