import {
  Controller,
  Inject,
  Module,
  Optional,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type Provider,
  type Type,
} from '@nestjs/common';
import { ConsoleApiController } from './console-api.controller.js';
import { ConsoleAssets } from './console-assets.js';
import { ConsoleHostMiddleware } from './console-host.middleware.js';
import { ConsolePageController } from './console-page.controller.js';
import { ConsolePageSender } from './console-page.sender.js';
import { MCP_CONSOLE_OPTIONS, resolveConsoleOptions } from './console-options.js';
import { ConsoleSlashRoute } from './console-slash.route.js';
import { ConsoleTarget } from './console-target.js';
import { ConsoleService } from './console.service.js';
import {
  MCP_CONSOLE_ASYNC_OPTIONS_TYPE,
  MCP_CONSOLE_MODULE_OPTIONS,
  MCP_CONSOLE_OPTIONS_TYPE,
  McpTasksConsoleConfigurableModule,
} from './mcp-tasks-console.module-definition.js';

const providers: Provider[] = [
  { provide: MCP_CONSOLE_OPTIONS, useFactory: resolveConsoleOptions, inject: [MCP_CONSOLE_MODULE_OPTIONS] },
  ConsoleTarget,
  ConsoleService,
  ConsoleAssets,
  ConsolePageSender,
  ConsoleSlashRoute,
];

/** This registration's controller classes, for its middleware. */
const CONSOLE_CONTROLLERS = Symbol('MCP_CONSOLE_CONTROLLERS');

/**
 * An operator console for the tasks of an `McpTasksModule`: a page at `path` listing, counting and
 * charting every instance's tasks from the shared store, and cancelling them. Mounted next to
 * `McpTasksModule`; it serves nothing until imported, and refuses to start without an access rule.
 * @publicApi
 */
@Module({})
export class McpTasksConsoleModule extends McpTasksConsoleConfigurableModule implements NestModule {
  constructor(@Optional() @Inject(CONSOLE_CONTROLLERS) private readonly controllers: Type[] = []) {
    super();
  }

  /** DNS-rebinding protection on every console route, ahead of every guard (see ConsoleHostMiddleware). */
  configure(consumer: MiddlewareConsumer): void {
    if (this.controllers.length) consumer.apply(ConsoleHostMiddleware).forRoutes(...this.controllers);
  }

  static forRoot(options: typeof MCP_CONSOLE_OPTIONS_TYPE): DynamicModule {
    return complete(super.forRoot(options));
  }

  static forRootAsync(options: typeof MCP_CONSOLE_ASYNC_OPTIONS_TYPE): DynamicModule {
    return complete(super.forRootAsync(options));
  }
}

/** Each registration gets its own controller classes: their paths are stored on the class. */
function complete(base: DynamicModule): DynamicModule {
  class Page extends ConsolePageController {}
  class Api extends ConsoleApiController {}
  const controllers = [Controller()(Page) ?? Page, Controller()(Api) ?? Api];
  return {
    ...base,
    controllers,
    providers: [...(base.providers ?? []), ...providers, { provide: CONSOLE_CONTROLLERS, useValue: controllers }],
  };
}
