import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { createMcpTestClient } from '@mcp-tasks/client/testing';
import { AppModule } from '../src/app.module.js';

/** `@mcp-tasks/client/testing`: a client for a Nest app under test. */
describe('client: Nest testing helper', () => {
  it('listens an app that is not listening yet and drives its tools', async () => {
    // README: testing helper
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    const client = await createMcpTestClient(app, { tasks: true });
    const call = await client.callTool('slow_compute', { seconds: 0.1, label: 'e2e' });
    if (call.kind === 'task') expect((await client.awaitTask(call.task)).status).toBe('completed');
    await client.close();
    await app.close();
    // /README
    expect(call.kind).toBe('task');
  });

  it('reuses an app that already listens', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    const client = await createMcpTestClient(app);
    try {
      expect(await client.callTool('word_count', { text: 'one two three' })).toMatchObject({
        kind: 'result',
        result: { content: [{ type: 'text', text: '3 words' }] },
      });
    } finally {
      await client.close();
      await app.close();
    }
  });
});
