import { execFileSync, spawnSync } from 'node:child_process';

/**
 * Finds `binary` on PATH (or in /usr/sbin, where Debian puts some servers); when it is missing and we are root,
 * installs Debian's `pkg` first, so a fresh CI machine needs no manual step. Jest runs suites in parallel workers:
 * the install holds a lock file (`flock`), and a worker that waited on it finds the binary the other installed.
 */
export function ensureBinary(binary: string, pkg: string): string {
  const found = which(binary);
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error(`${binary} not found: install the Debian package ${pkg}`);
  const install =
    `command -v ${binary} >/dev/null || [ -x /usr/sbin/${binary} ] || ` +
    `{ apt-get update -qq && apt-get install -y -qq -o DPkg::Lock::Timeout=600 ${pkg}; }`;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const res = spawnSync('flock', ['-w', '900', '/tmp/mcp-tasks-apt.lock', 'sh', '-c', install], {
    env,
    encoding: 'utf8',
    timeout: 960_000,
  });
  const installed = which(binary);
  if (!installed) throw new Error(`apt-get install ${pkg} did not provide ${binary}: ${res.stderr ?? ''}`);
  return installed;
}

function which(binary: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/usr/local/bin']) {
    try {
      execFileSync('test', ['-x', `${dir}/${binary}`]);
      return `${dir}/${binary}`;
    } catch {
      // not here
    }
  }
  return undefined;
}
