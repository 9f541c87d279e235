import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { chromium, type BrowserContext } from 'playwright-core';

const run = promisify(execFile);
const BROWSER = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for a headless Chromium on a closed network: without the background-networking ones it
 * keeps trying to reach Google's hosts at every start.
 */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running headless Chromium. */
export interface TestBrowser {
  /**
   * A fresh browser context (its own cookies, storage and connections). Close it before the app it talks to:
   * Chromium keeps spare connections open that it never sent a request on (preconnects), and Node's
   * `server.close()` waits for those until Chromium drops them, over a minute later.
   */
  newContext(): Promise<BrowserContext>;
  /** Closes the browser. */
  close(): Promise<void>;
}

/**
 * Installs Debian's `chromium` with apt-get when it is missing (CI on a fresh machine runs as root),
 * and fails loudly when it cannot — a browser suite is never skipped silently. Allow a few minutes.
 */
export async function ensureChromium(): Promise<string> {
  if (existsSync(BROWSER)) return BROWSER;
  if (process.getuid?.() !== 0)
    throw new Error(`${BROWSER} is missing and installing it needs root: run "apt-get install -y chromium"`);
  // Suites run side by side: one installs, the others wait for it, then find the browser there.
  return installOnce(async () => {
    if (!existsSync(BROWSER)) await install();
    if (!existsSync(BROWSER)) throw new Error(`apt-get installed chromium, but ${BROWSER} is not there`);
    return BROWSER;
  });
}

/** Runs `work` while holding a machine-wide lock (a directory; one left by a crashed run goes stale after 15 min). */
async function installOnce<T>(work: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), 'mcp-tasks-chromium-install.lock');
  for (const deadline = Date.now() + 9 * 60_000; ;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited 9 min for another suite's chromium install (${lock})`);
      await sleep(500);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function install(): Promise<void> {
  const apt = (...args: string[]) =>
    run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 540_000,
      maxBuffer: 64 << 20,
    });
  try {
    await apt('install', '-y', 'chromium');
  } catch {
    // A fresh machine's package lists may be missing or stale.
    await apt('update');
    await apt('install', '-y', 'chromium');
  }
}

/** Starts headless Chromium (installed first if needed) through playwright-core. */
export async function startBrowser(): Promise<TestBrowser> {
  const executablePath = await ensureChromium();
  const browser = await chromium.launch({ executablePath, headless: true, args: FLAGS, timeout: 120_000 });
  return {
    newContext: () => browser.newContext({ viewport: { width: 1280, height: 1000 } }),
    close: () => browser.close().catch(() => undefined),
  };
}
