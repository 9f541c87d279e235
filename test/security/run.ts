/**
 * `npm run test:security`: the attacks SECURITY.md lists, end to end against the built demo in a production-like
 * configuration (auth with a secret of its own, SQLite store, telemetry on), on Express and Fastify, with the fast
 * path on and off. Ends with `N passed, N failed`; exits non-zero on any failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess } from '../support/app-process.js';
import { consoleAccess } from './attacks/console-access.js';
import { demoStartup } from './attacks/demo-startup.js';
import { derivedAudience } from './attacks/derived-audience.js';
import { isolation } from './attacks/isolation.js';
import { limits } from './attacks/limits.js';
import { rebinding } from './attacks/rebinding.js';
import { scopes } from './attacks/scopes.js';
import { sealedState } from './attacks/sealed-state.js';
import { tokens } from './attacks/tokens.js';
import { freshSecret, Target } from './support/target.js';
import { Verdicts } from './support/verdicts.js';

type Attack = (t: Target) => Promise<void>;

const ATTACKS: Array<[string, Attack]> = [
  ['rebinding', rebinding],
  ['tokens', tokens],
  ['isolation', isolation],
  ['scopes', scopes],
  ['sealed-state', sealedState],
  ['limits', limits],
  ['console-access', consoleAccess],
];

const VARIANTS = ['express', 'fastify'].flatMap((adapter) =>
  ['1', '0'].map((fast) => ({ name: `${adapter}, fast path ${fast === '1' ? 'on' : 'off'}`, adapter, fast })),
);

// `--only a,b`: only these attacks (`audience`: beyond loopback; `demo`: the demo's startup), e.g. while fixing one.
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set(process.argv[onlyAt + 1].split(',')) : undefined;
const chosen = ATTACKS.filter(([name]) => !only || only.has(name));
const verdicts = new Verdicts();
const dir = mkdtempSync(join(tmpdir(), 'mcp-security-'));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

try {
  for (const v of chosen.length ? VARIANTS : []) {
    process.stdout.write(`\n# ${v.name}\n`);
    const secret = freshSecret();
    let app: AppProcess | undefined;
    try {
      app = await AppProcess.start({
        script: 'dist/src/main.js',
        env: {
          MCP_AUTH: '1',
          MCP_JWT_SECRET: secret,
          MCP_STATE_SECRET: freshSecret(),
          MCP_ADAPTER: v.adapter,
          MCP_FAST_PATH: v.fast,
          MCP_STORE: 'sqlite',
          MCP_SQLITE_FILE: join(dir, `${v.adapter}-${v.fast}.sqlite`),
          MCP_TELEMETRY: '1',
        },
      });
      const target = new Target(v.name, app.port, secret, (a, ok, d) => verdicts.record(v.name, a, ok, d));
      for (const [name, attack] of chosen) {
        try {
          await attack(target);
        } catch (err) {
          verdicts.record(v.name, `${name}: ran to the end`, false, String((err as Error)?.stack ?? err));
        }
      }
      verdicts.record(v.name, 'the demo is still up after every attack', app.alive, app.alive ? '' : app.lastLines());
    } catch (err) {
      verdicts.record(v.name, 'the demo started', false, String((err as Error)?.message ?? err));
    } finally {
      await app?.stop();
    }
  }
  if (!only || only.has('audience')) {
    for (const adapter of ['express', 'fastify']) {
      process.stdout.write(`\n# ${adapter}, beyond loopback\n`);
      await derivedAudience(adapter, (v, a, ok, d) => verdicts.record(v, a, ok, d));
    }
  }
  if (!only || only.has('demo')) {
    process.stdout.write('\n# demo startup\n');
    await demoStartup((a, ok, d) => verdicts.record('demo', a, ok, d));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`\n${verdicts.summary()}\n`);
process.exit(verdicts.failed > 0 ? 1 : 0);
