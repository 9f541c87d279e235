import { Logger, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { devTokenNotice } from './demo-token.js';

const LOG_LEVELS = ['error', 'warn', 'log'] as const;

/** The app on Express (Nest's default), or on Fastify with `MCP_ADAPTER=fastify`. */
async function create(module: Type): Promise<INestApplication> {
  if (process.env.MCP_ADAPTER !== 'fastify') return NestFactory.create(module, { logger: [...LOG_LEVELS] });
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  return NestFactory.create(module, new FastifyAdapter(), { logger: [...LOG_LEVELS] });
}

/** Starts an app around `module` on HOST:PORT (default 127.0.0.1:3000); the MCP endpoint is at /mcp. */
export async function bootstrap(module: Type): Promise<void> {
  const app = await create(module);
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  const logger = new Logger('Demo');
  logger.log(`MCP endpoint on http://${host}:${port}/mcp (${process.env.MCP_ADAPTER ?? 'express'})`);
  const notice = devTokenNotice();
  if (notice) logger.log(notice);
}
