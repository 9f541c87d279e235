import {
  Controller,
  ForbiddenException,
  Get,
  Header,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ConsoleAccessGuard } from './console-access.guard.js';
import { Actor } from './console-actor.js';
import { MCP_CONSOLE_OPTIONS, type ResolvedConsoleOptions } from './console-options.js';
import { ConsoleService } from './console.service.js';

/** The console's data at `<path>/api`, every route behind the access rule; never cached on the way. */
@Controller()
@UseGuards(ConsoleAccessGuard)
export class ConsoleApiController {
  constructor(
    @Inject(MCP_CONSOLE_OPTIONS) options: ResolvedConsoleOptions,
    private readonly console: ConsoleService,
  ) {
    // `@Controller()` again, now with the path: Nest's public way to set it.
    Controller(`${options.path === '/' ? '' : options.path}/api`)(new.target);
  }

  @Get('overview')
  @Header('cache-control', 'no-store')
  overview() {
    return this.console.overview();
  }

  @Get('activity')
  @Header('cache-control', 'no-store')
  activity() {
    return this.console.activity();
  }

  @Get('tasks')
  @Header('cache-control', 'no-store')
  list(@Query() query: Record<string, unknown>) {
    return this.console.list(query);
  }

  @Get('tasks/:id')
  @Header('cache-control', 'no-store')
  detail(@Param('id') id: string) {
    return this.console.detail(id);
  }

  /**
   * Needs the `x-mcp-console` header: a cross-site form cannot send one, so a cookie-based guard is
   * not open to cross-site request forgery.
   */
  @Post('tasks/:id/cancel')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  cancel(@Param('id') id: string, @Headers('x-mcp-console') marker: string | undefined, @Actor() actor: string) {
    if (marker !== '1') throw new ForbiddenException('Console actions need the header x-mcp-console: 1');
    return this.console.cancel(id, actor);
  }
}
