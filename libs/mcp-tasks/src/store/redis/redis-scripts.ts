import { CAS_LUA } from './cas.lua.js';
import { CREATE_LUA } from './create.lua.js';
import { LAPSED_LUA, RELEASE_LUA, RENEW_LUA } from './lease.lua.js';
import { OWNER_LIST_LUA, SCAN_LUA } from './listing.lua.js';
import { STATUSES_LUA, SWEEP_LUA } from './read.lua.js';
import type { RedisClient } from './redis-client.interface.js';

const SCRIPTS = {
  create: CREATE_LUA,
  cas: CAS_LUA,
  renew: RENEW_LUA,
  release: RELEASE_LUA,
  lapsed: LAPSED_LUA,
  sweep: SWEEP_LUA,
  statuses: STATUSES_LUA,
  ownerList: OWNER_LIST_LUA,
  scan: SCAN_LUA,
} as const;

type ScriptName = keyof typeof SCRIPTS;

/**
 * The store's Lua scripts on one client, under names of their own (`mcpTasks_<name>`, so they cannot clash with
 * the commands an app defines on a client it shares). Every argument is ARGV: scripts build the key names from the
 * prefix they are given.
 */
export class RedisScripts {
  constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
  ) {
    for (const [name, lua] of Object.entries(SCRIPTS))
      client.defineCommand(commandName(name), { numberOfKeys: 0, lua });
  }

  run<T>(name: ScriptName, ...args: Array<string | number>): Promise<T> {
    const command = (this.client as unknown as Record<string, (...a: unknown[]) => Promise<T>>)[commandName(name)];
    return command.call(this.client, this.prefix, ...args.map(String));
  }
}

const commandName = (name: string): string => `mcpTasks_${name}`;
