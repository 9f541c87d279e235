#!/usr/bin/env node
// Mints a development token for the demo's auth mode (MCP_AUTH=1).
//   npm run token -- --sub alice --scope "export deploy" [--client cli] [--minutes 60]
import jwt from 'jsonwebtoken';
import { parseArgs } from 'node:util';

const flag = { type: 'string' };
const { values: args } = parseArgs({ options: { sub: flag, scope: flag, client: flag, minutes: flag } });
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '3000';
const secret = process.env.MCP_JWT_SECRET ?? 'demo-secret-change-me-demo-secret-change-me';
const token = jwt.sign(
  {
    sub: args.sub ?? 'alice',
    scope: args.scope ?? 'export deploy',
    azp: args.client ?? 'dev-cli',
    aud: `http://${host}:${port}/mcp`,
  },
  secret,
  { algorithm: 'HS256', issuer: 'https://demo-issuer.invalid', expiresIn: `${Number(args.minutes ?? 60)}m` },
);
process.stdout.write(`${token}\n`);
