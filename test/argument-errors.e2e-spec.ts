import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { McpTool, MemoryTaskStore, RequiredScopes } from '@mcp-tasks/nestjs';
import { createAuthApp } from './fixtures/auth-app.js';
import { legacyHeaders, post, request } from './support/legacy-wire.js';
import { call, rpc, TASKS } from './support/mcp-request.js';
import { hs256 } from './support/tokens.js';
import { connectV1 } from './support/v1-client.js';

class StepDto {
  @IsString()
  @IsNotEmpty()
  name!: string;

  @IsInt()
  @Min(0)
  at!: number;
}

class ScheduleDto {
  @IsInt()
  @Min(1)
  @Max(3600)
  seconds!: number;

  @IsString()
  @MaxLength(20)
  label!: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => StepDto)
  steps!: StepDto[];
}

@Injectable()
class ScheduleTools {
  @McpTool({ description: 'Schedules steps; a task when the client can', input: ScheduleDto, task: 'optional' })
  @RequiredScopes('files:write')
  schedule(args: ScheduleDto): string {
    return `scheduled ${args.steps.length} in ${args.seconds}s`;
  }
}

@Module({ providers: [ScheduleTools] })
class ScheduleToolsModule {}

const WRITER_TOKEN = hs256({ sub: 'w', azp: 'c', scope: 'files:read files:write' });
const WRITER = { authorization: `Bearer ${WRITER_TOKEN}` };
const READER = { authorization: `Bearer ${hs256({ sub: 'r', azp: 'c', scope: 'files:read' })}` };
/** Every property wrong, some several ways at once ("ten" fails isInt, min and max). */
const BAD = {
  seconds: 'ten',
  label: 'x'.repeat(30),
  steps: [
    { name: '', at: -1 },
    { name: 5, at: 'soon' },
  ],
};
const PROBLEMS = [
  'Invalid arguments for tool schedule:',
  'seconds: must be an integer number',
  'label: must be shorter than or equal to 20 characters',
  'steps[0].name: should not be empty',
  'steps[0].at: must not be less than 0',
  'steps[1].name: must be a string',
  'steps[1].at: must be an integer number',
].join('\n');
const GOOD = { seconds: 5, label: 'ok', steps: [{ name: 'a', at: 0 }] };
const LEGACY_ERAS = ['2025-11-25', '2025-06-18'];

/**
 * Arguments that fail a tool's DTO are a tool execution error (2025-11-25 SEP-1303, 2026-07-28 Tools → Error
 * Handling): a result with `isError: true` the model can read and retry with, one line per failing property with its
 * most telling rule — after the scope guard, before any task. Unknown tools and malformed requests stay -32602.
 */
describe('arguments that fail the tool schema are a tool error result', () => {
  const store = new MemoryTaskStore();
  let app: INestApplication;
  let url: URL;
  const taskCount = async () => (await store.listTasks({ limit: 100 }, Date.now())).total;
  /** A 2025-era `tools/call`: `era` as its version header, a task asked for (only 2025-11-25 knows the field). */
  const legacyCall = (era: string, args: unknown, headers = WRITER, name = 'schedule') =>
    post(
      url,
      request('tools/call', { name, arguments: args, task: {} }),
      legacyHeaders(undefined, { ...headers, 'mcp-protocol-version': era }),
    );

  beforeAll(async () => {
    app = await createAuthApp({ store }, [ScheduleToolsModule]);
    const { port } = app.getHttpServer().address() as { port: number };
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });
  afterAll(() => app?.close());

  it('2026-07-28: a complete result with isError, a line per property, no task though one was asked for', async () => {
    const res = await call(app, 'schedule', BAD, { headers: WRITER, caps: TASKS, id: 'b' });
    expect([res.status, res.body]).toEqual([
      200,
      {
        jsonrpc: '2.0',
        id: 'b',
        result: {
          resultType: 'complete',
          content: [{ type: 'text', text: PROBLEMS }],
          isError: true,
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'files', version: '1' } },
        },
      },
    ]);
    expect(await taskCount()).toBe(0);
  });

  it.each(LEGACY_ERAS)('%s: the same result on that wire (no resultType), and no task', async (era) => {
    const res = await legacyCall(era, BAD);
    expect([res.status, res.body]).toEqual([
      200,
      {
        jsonrpc: '2.0',
        id: expect.any(String),
        result: { content: [{ type: 'text', text: PROBLEMS }], isError: true },
      },
    ]);
    expect(await taskCount()).toBe(0);
  });

  it("the official v1 client's callTool gets the error result (isError), no exception and no task", async () => {
    const c = await connectV1(url, { token: WRITER_TOKEN });
    try {
      const result = await c.client.callTool({ name: 'schedule', arguments: BAD }, CallToolResultSchema);
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: PROBLEMS }] });
    } finally {
      await c.close();
    }
    expect(await taskCount()).toBe(0);
  });

  it('a caller lacking the scope gets the scope refusal, never the schema (both eras)', async () => {
    const modern = await call(app, 'schedule', BAD, { headers: READER, caps: TASKS });
    const legacy = await legacyCall('2025-11-25', BAD, READER);
    for (const res of [modern, legacy]) {
      expect(res.status).toBe(403);
      expect(res.headers['www-authenticate']).toMatch(/error="insufficient_scope"/);
      expect(JSON.stringify(res.body)).not.toMatch(/seconds|integer|isError/);
    }
    expect(await taskCount()).toBe(0);
  });

  it('an unknown tool, or arguments that are no object, stay -32602 (both eras)', async () => {
    const unknown = await call(app, 'no_such_tool', BAD, { headers: WRITER, caps: TASKS });
    expect(unknown.body.error).toEqual({ code: -32602, message: 'Unknown tool: no_such_tool' });
    const array = await rpc(app, 'tools/call', { name: 'schedule', arguments: [1] }, { headers: WRITER, caps: TASKS });
    expect(array.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/must be an object/) });
    for (const era of LEGACY_ERAS) {
      const legacyUnknown = await legacyCall(era, BAD, WRITER, 'no_such_tool');
      expect(legacyUnknown.body.error).toEqual({ code: -32602, message: 'Unknown tool: no_such_tool' });
      const legacyArray = await legacyCall(era, 'ten');
      expect(legacyArray.body.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/must be an object/),
      });
    }
    expect(await taskCount()).toBe(0);
  });

  it('the same call with valid arguments makes its task (so the counts above could have moved)', async () => {
    const res = await call(app, 'schedule', GOOD, { headers: WRITER, caps: TASKS });
    expect(res.body.result).toMatchObject({ resultType: 'task', status: expect.any(String) });
    const legacy = await legacyCall('2025-11-25', GOOD);
    expect(legacy.body.result.task).toMatchObject({ taskId: expect.any(String) });
    expect(await taskCount()).toBe(2);
  });
});
