import { afterAll, beforeAll } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import type { McpTasksClient } from '@mcp-tasks/client';
import { startDemo } from './official-client.js';

/**
 * For a describe block whose tests open `@mcp-tasks/client` clients on the demo: starts the demo before them
 * (`started` gets its /mcp URL), and after them closes every client `track` was given — even one a failed test
 * left open — then the demo.
 */
export function demoClients(started: (url: URL) => void): <T extends McpTasksClient>(client: T) => T {
  let app: INestApplication | undefined;
  const opened: McpTasksClient[] = [];
  beforeAll(async () => {
    const demo = await startDemo();
    app = demo.app;
    started(demo.url);
  });
  afterAll(async () => {
    for (const c of opened) await c.close().catch(() => undefined);
    await app?.close();
  });
  return (client) => (opened.push(client), client);
}
