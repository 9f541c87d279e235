import { Logger, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** Starts an app around `module` on HOST:PORT (default 127.0.0.1:3000); the MCP endpoint is at /mcp. */
export async function bootstrap(module: Type): Promise<void> {
  const app = await NestFactory.create(module, { logger: ['error', 'warn', 'log'] });
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  new Logger('Demo').log(`MCP endpoint on http://${host}:${port}/mcp`);
}
