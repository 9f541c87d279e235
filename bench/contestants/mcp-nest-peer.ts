// The MCP-Nest peer: @rekog/mcp-nest (a NestJS microservice transport strategy over the official SDK)
// on Express, stateless streamable HTTP, with the same trivial synchronous tool. MCP-Nest has no
// tasks extension, so it takes part in the synchronous tools/call figures only.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { McpController, McpStrategy, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';

@McpController()
class GreetController {
  @Tool({ name: 'greet', description: 'Greets someone', parameters: z.object({ name: z.string() }) })
  greet(@Payload() { name }: { name: string }) {
    return { content: [{ type: 'text', text: `Hello, ${name}!` }] };
  }
}

@Module({ controllers: [GreetController] })
class PeerModule {}

const mcp = new McpStrategy({
  name: 'mcp-nest-peer',
  version: '1.0.0',
  transports: [new StreamableHttpTransport()],
  logging: false,
});
const app = await NestFactory.create(PeerModule, { logger: ['error', 'warn'] });
mcp.setHttpAdapter(app.getHttpAdapter());
app.connectMicroservice({ strategy: mcp });
await app.startAllMicroservices();
await app.listen(Number(process.env.PORT ?? 3102), process.env.HOST ?? '127.0.0.1');
