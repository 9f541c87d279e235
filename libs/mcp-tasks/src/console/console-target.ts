import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { BearerAuthenticator } from '../auth/bearer.authenticator.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TaskStore } from '../store/task-store.interface.js';
import { TaskRunner } from '../tasks/task.runner.js';
import { MCP_CONSOLE_OPTIONS, type ResolvedConsoleOptions } from './console-options.js';

/** What the console reads from one `McpTasksModule` registration. */
interface Registration {
  options: ResolvedOptions;
  store: TaskStore;
  runner: TaskRunner;
  bearer: BearerAuthenticator;
}

/**
 * The `McpTasksModule` registration the console shows, found among the app's modules by its
 * `server.name` (each registration has its own store, runner and options, and none is exported
 * app-wide). Resolved once every provider exists; a missing or ambiguous server fails startup.
 */
@Injectable()
export class ConsoleTarget implements OnModuleInit {
  private found?: Registration;

  constructor(
    private readonly modules: ModulesContainer,
    @Inject(MCP_CONSOLE_OPTIONS) private readonly console: ResolvedConsoleOptions,
  ) {}

  onModuleInit(): void {
    const all = [...this.modules.values()].flatMap((m): Registration[] => {
      const get = <T>(token: unknown) => m.providers.get(token as never)?.instance as T | undefined;
      const options = get<ResolvedOptions>(MCP_TASKS_OPTIONS);
      const [store, runner, bearer] = [
        get<TaskStore>(TaskStore),
        get<TaskRunner>(TaskRunner),
        get(BearerAuthenticator),
      ];
      return options && store && runner ? [{ options, store, runner, bearer: bearer as BearerAuthenticator }] : [];
    });
    const names = all.map((r) => `"${r.options.server.name}"`).join(', ');
    const wanted = this.console.server;
    const matching = wanted === undefined ? all : all.filter((r) => r.options.server.name === wanted);
    if (all.length === 0)
      throw this.error('no McpTasksModule is registered in this app; import it next to the console');
    if (matching.length === 0) throw this.error(`no McpTasksModule has server.name "${wanted}" (registered: ${names})`);
    if (matching.length > 1)
      throw this.error(
        wanted === undefined
          ? `several McpTasksModule registrations (${names}): name the one to show with \`server\``
          : `several McpTasksModule registrations are named "${wanted}"`,
      );
    const [target] = matching;
    if (this.console.scopes.length > 0 && !target.options.auth)
      throw this.error(
        `\`scope\` checks bearer tokens with the McpTasksModule \`auth\`, ` +
          `and server "${target.options.server.name}" has none: ` +
          'configure its `auth`, or protect the console with a `guard`',
      );
    this.found = target;
  }

  get registration(): Registration {
    if (!this.found) throw new Error('McpTasksConsoleModule: used before the application finished starting');
    return this.found;
  }

  private error(message: string): Error {
    return new Error(`McpTasksConsoleModule: ${message}`);
  }
}
