import { Controller, Get, Module } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { McpTasksHealthIndicator } from '@mcp-tasks/nestjs';

/** `GET /health`: the MCP server's store, bus, sweeper and caps, through @nestjs/terminus (503 when down). */
@Controller('health')
class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mcp: McpTasksHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.mcp.isHealthy('mcp-tasks')]);
  }
}

@Module({ imports: [TerminusModule], controllers: [HealthController] })
export class DemoHealthModule {}
