import type { CanActivate, Provider, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { McpScopesGuard } from './mcp-scopes.guard.js';
import { TaskOwnershipGuard } from './task-ownership.guard.js';

/** A guard built by Nest from the class the `guards` option names (so an app's subclass may inject), else ours. */
const guardProvider = (token: Type<CanActivate>, pick: (o: ResolvedOptions) => Type<CanActivate> | undefined) => ({
  provide: token,
  useFactory: (o: ResolvedOptions, ref: ModuleRef) => ref.create(pick(o) ?? token),
  inject: [MCP_TASKS_OPTIONS, ModuleRef],
});

/** The scopes and ownership guards, under their own class tokens whichever class the app chose. */
export const guardsProviders: Provider[] = [
  guardProvider(McpScopesGuard, (o) => o.guards.scopes),
  guardProvider(TaskOwnershipGuard, (o) => o.guards.ownership),
];
