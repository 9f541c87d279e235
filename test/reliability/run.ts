/**
 * `npm run test:reliability [-- --long] [-- --seed N] [-- --only a,b]`: bad input, adversarial answers,
 * disconnects, load (with telemetry truth), faults, isolation and secrets against the built demo, with figures.
 * Ends with `N passed, N failed`; exits non-zero on any failed check.
 */
import { startPostgres } from '../support/postgres.js';
import { answers } from './phases/answers.js';
import { badInput } from './phases/bad-input.js';
import { brokerRestart } from './phases/broker-restart.js';
import { clusterLoad } from './phases/cluster-load.js';
import { disconnects } from './phases/disconnects.js';
import { pgDownStart } from './phases/pg-down-start.js';
import { resumeFencing } from './phases/resume-fencing.js';
import { resumeSigkill } from './phases/resume-sigkill.js';
import { resumeSqlite } from './phases/resume-sqlite.js';
import { rollingDeploy } from './phases/rolling-deploy.js';
import { secrets } from './phases/secrets.js';
import { sigkill } from './phases/sigkill.js';
import { sqliteRestart } from './phases/sqlite-restart.js';
import { storeOutage } from './phases/store-outage.js';
import { taskIds } from './phases/task-ids.js';
import { profileFrom } from './profile.js';
import { createDatabase, type RunContext } from './support/context.js';
import { Report } from './support/report.js';

type Phase = (ctx: RunContext) => Promise<void>;

const PHASES: Array<[string, Phase]> = [
  ['task-ids', taskIds],
  ['secrets', secrets],
  ['bad-input', badInput],
  ['answers', answers],
  ['disconnects', disconnects],
  ['load', clusterLoad('postgres')],
  ['load-redis', clusterLoad('redis')],
  ['sigkill', sigkill],
  ['sqlite-restart', sqliteRestart],
  ['resume-sigkill', resumeSigkill('postgres')],
  ['resume-sigkill-redis', resumeSigkill('redis')],
  ['resume-sqlite', resumeSqlite],
  ['resume-fencing', resumeFencing],
  ['rolling-deploy', rollingDeploy],
  ['redis-restart', storeOutage('redis')],
  ['redis-bus-restart', brokerRestart('redis')],
  ['nats-bus-restart', brokerRestart('nats')],
  // Last: they restart the shared PostgreSQL.
  ['pg-restart', storeOutage('postgres')],
  ['pg-down-start', pgDownStart],
];

/**
 * Left out of the CI profile, which is over its time budget (they run with `--long`, or when `--only` names them):
 * the Redis store's runs of phases PostgreSQL already runs in CI.
 */
const LONG_ONLY = new Set(['load-redis', 'resume-sigkill-redis']);

const argv = process.argv.slice(2);
const profile = profileFrom(argv);
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set(argv[onlyAt + 1].split(',')) : undefined;
const report = new Report();
const startedAt = Date.now();
let unhandled = 0;
process.on('unhandledRejection', (err) => {
  unhandled++;
  process.stderr.write(`suite: unhandled rejection: ${String((err as Error)?.stack ?? err)}\n`);
});

// Ctrl-C or a CI timeout: exit through 'exit', so PostgreSQL and the demo instances are stopped.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

process.stdout.write(`reliability suite, profile ${profile.name}, seed ${profile.seed}\n`);
const pg = await startPostgres();
const ctx: RunContext = { report, profile, pg, database: (name) => createDatabase(pg.url, name) };
try {
  for (const [name, phase] of PHASES) {
    if (only ? !only.has(name) : profile.name === 'ci' && LONG_ONLY.has(name)) continue;
    const t0 = Date.now();
    process.stdout.write(`\n# ${name}\n`);
    try {
      await phase(ctx);
    } catch (err) {
      report.check(name, 'phase ran to the end', false, String((err as Error)?.stack ?? err));
    }
    process.stdout.write(`  (${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
  }
} finally {
  await pg.stop();
}
if (unhandled) report.check('suite', 'no unhandled rejection in the suite itself', false, `${unhandled}`);
process.stdout.write(
  `\nprofile ${profile.name}, seed ${profile.seed}, ${((Date.now() - startedAt) / 1000).toFixed(0)} s\n`,
);
process.stdout.write(`${report.summary()}\n`);
process.exit(report.failed > 0 ? 1 : 0);
