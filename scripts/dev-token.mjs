#!/usr/bin/env node
// Mints a development token for the demo's auth mode (MCP_AUTH=1), with the demo's own signing code and the
// secret the demo was started with:
//   MCP_JWT_SECRET=… npm run token -- --sub alice --scope "export deploy" [--client cli] [--minutes 60]
import { parseArgs } from 'node:util';

const flag = { type: 'string' };
const { values: args } = parseArgs({ options: { sub: flag, scope: flag, client: flag, minutes: flag } });
const secret = process.env.MCP_JWT_SECRET;
if (!secret) {
  console.error(
    'dev-token: set MCP_JWT_SECRET to the secret the demo was started with. Without it the demo signs with a ' +
      'random secret of its own each start, and prints a development token (every scope) when it starts.',
  );
  process.exit(1);
}
const [{ demoToken }, { demoResource }] = await Promise.all([
  import('../dist/src/demo-token.js'),
  import('../dist/src/demo-auth.js'),
]).catch(() => {
  console.error('dev-token: the demo is not built yet: run `npm run build` (or `npm start`) first');
  process.exit(1);
});
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '3000';
const token = demoToken(port, {
  sub: args.sub ?? 'alice',
  secret,
  scope: args.scope,
  client: args.client,
  aud: demoResource(host, port),
  expiresIn: Number(args.minutes ?? 60) * 60,
});
process.stdout.write(`${token}\n`);
