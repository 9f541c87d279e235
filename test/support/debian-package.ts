import { execFileSync, spawnSync } from 'node:child_process';

/**
 * Finds `binary` on PATH (or in /usr/sbin, where Debian puts some servers); when it is missing and we are root,
 * installs Debian's `pkg` first (`apt-get update` once per process), so a fresh CI machine needs no manual step.
 */
export function ensureBinary(binary: string, pkg: string): string {
  const found = which(binary);
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error(`${binary} not found: install the Debian package ${pkg}`);
  if (!updated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', timeout: 300_000 });
    updated = true;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const res = spawnSync('apt-get', ['install', '-y', '-qq', pkg], { env, encoding: 'utf8', timeout: 300_000 });
  const installed = which(binary);
  if (!installed) throw new Error(`apt-get install ${pkg} did not provide ${binary}: ${res.stderr ?? ''}`);
  return installed;
}

let updated = false;

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
