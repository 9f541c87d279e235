#!/usr/bin/env node
// Mints a development token for the demo's auth mode (MCP_AUTH=1).
//   npm run token -- --sub alice --scope "export deploy" [--client cli] [--minutes 60]
import jwt from 'jsonwebtoken';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
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
