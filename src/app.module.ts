import { Module } from '@nestjs/common';
import { McpTasksModule } from '@mcp-tasks/nestjs';
import { McpTasksConsoleModule } from '@mcp-tasks/nestjs/console';
import { ConformanceModule } from './conformance/conformance.module.js';
import { DemoModule } from './demo/demo.module.js';
import { demoAuth } from './demo-auth.js';
import { demoConsole } from './demo-console.js';
import { DemoHealthModule } from './demo-health.js';
import { demoStorage } from './demo-storage.js';
import { demoUpstreams } from './demo-upstream.js';

const storage = demoStorage();

@Module({
  imports: [
    ...storage.imports,
    McpTasksModule.forRoot({
      ...storage.options,
      server: { name: 'mcp-tasks-demo', version: '0.1.0', instructions: 'Demo tools that run as MCP tasks.' },
      // Conformance clients poll quickly; a person trying the demo by hand can raise it.
      pollInterval: Number(process.env.MCP_POLL_INTERVAL ?? 250),
      // Off unless MCP_AUTH=1 (see docs/authorization.md, "Trying authorization by hand").
      auth: demoAuth(),
      // Host names besides localhost the demo answers for (DNS-rebinding check, and a resource taken from requests).
      allowedHosts: process.env.MCP_ALLOWED_HOSTS?.split(','),
      telemetry: process.env.MCP_TELEMETRY !== '0',
      lease: process.env.MCP_LEASE ? Number(process.env.MCP_LEASE) : undefined,
      // Live tasks one owner may hold (100 by default; "Infinity" for none): lets a load test or a demo raise it.
      maxPerPrincipal: process.env.MCP_MAX_PER_PRINCIPAL ? Number(process.env.MCP_MAX_PER_PRINCIPAL) : undefined,
      // How long a stopping instance lets running tasks finish (resumable ones are then handed over).
      shutdownGrace: process.env.MCP_SHUTDOWN_GRACE ? Number(process.env.MCP_SHUTDOWN_GRACE) : undefined,
      // The demo has no middleware of its own, so it takes the fast path (MCP_FAST_PATH=0: the Nest route).
      fastPath: process.env.MCP_FAST_PATH !== '0',
      // The demo's GET /health module injects this registration's health indicator.
      isGlobal: true,
      // A gateway in front of another MCP server when MCP_UPSTREAM_URL is set (see docs/gateway.md).
      upstreams: demoUpstreams(),
    }),
    // The operator console at /mcp-console (behind the mcp:admin scope with MCP_AUTH=1, else loopback only).
    McpTasksConsoleModule.forRoot(demoConsole()),
    // First: the conformance suite calls the first listed tool with empty arguments.
    ConformanceModule,
    DemoModule,
    DemoHealthModule,
  ],
})
export class AppModule {}
