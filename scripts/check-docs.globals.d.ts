// The names docs/client.md's examples use without declaring them, as their introduction says: they are jest tests,
// run with the server's `url`, a connected `client`, a `token` the server accepts and `login()` for a fresh one.
// scripts/check-docs.mjs compiles every TypeScript snippet of the docs with these in scope.
import type { expect as jestExpect } from '@jest/globals';
import type { McpTasksClient } from '@mcp-tasks/client';

declare global {
  const url: URL;
  const client: McpTasksClient;
  const token: string;
  function login(): Promise<string>;
  const expect: typeof jestExpect;
}
