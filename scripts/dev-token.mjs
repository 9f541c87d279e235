#!/usr/bin/env node
// Mints a development token for the demo's auth mode (MCP_AUTH=1), with the demo's own signing code.
//   npm run token -- --sub alice --scope "export deploy" [--client cli] [--minutes 60]
import { parseArgs } from 'node:util';

const flag = { type: 'string' };
const { values: args } = parseArgs({ options: { sub: flag, scope: flag, client: flag, minutes: flag } });
const { demoToken } = await import('../dist/src/demo-token.js').catch(() => {
  console.error('dev-token: the demo is not built yet: run `npm run build` (or `npm start`) first');
  process.exit(1);
});
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '3000';
const token = demoToken(port, {
  sub: args.sub ?? 'alice',
  scope: args.scope,
  client: args.client,
  aud: `http://${host}:${port}/mcp`,
  expiresIn: Number(args.minutes ?? 60) * 60,
});
process.stdout.write(`${token}\n`);
