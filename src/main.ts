import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

/** Starts the demo on HOST:PORT (default 127.0.0.1:3000); the MCP endpoint is at /mcp. */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn', 'log'] });
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  new Logger('Demo').log(`MCP endpoint on http://${host}:${port}/mcp`);
}

await bootstrap();
