// jest globalSetup: the Redis and NATS suites' servers are Debian packages. On a fresh machine (as root) they are
// installed here, once, before any worker starts — an apt-get inside a suite's beforeAll would outlast its timeout.
// test/support/debian-package.ts does the same per suite (for a run outside jest) under the same lock.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SERVERS = [
  ['redis-server', 'redis-server'],
  ['nats-server', 'nats-server'],
];

const has = (bin) =>
  [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin'].some((d) => d && existsSync(`${d}/${bin}`));

export default function installBrokerServers() {
  const missing = SERVERS.filter(([bin]) => !has(bin)).map(([, pkg]) => pkg);
  if (!missing.length || process.getuid?.() !== 0) return;
  const install = `apt-get update -qq && apt-get install -y -qq -o DPkg::Lock::Timeout=600 ${missing.join(' ')}`;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const res = spawnSync('flock', ['-w', '900', '/tmp/mcp-tasks-apt.lock', 'sh', '-c', install], {
    env,
    stdio: 'inherit',
    timeout: 960_000,
  });
  if (res.status !== 0)
    console.warn(`installing ${missing.join(', ')} failed (exit ${res.status}): their suites will say so`);
}
