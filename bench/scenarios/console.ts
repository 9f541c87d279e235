import type { Started } from '../contestants/lineup.js';
import { percentile } from '../load/stats.js';
import { SEED_TOOLS, seedConsoleTasks } from '../support/console-seed.js';
import type { Ctx } from './context.js';

/** Each route: unmeasured warm-up requests, then this many measured ones, one at a time. */
const WARMUP = 5;

interface Route {
  name: string;
  path: string;
  list: boolean;
}

/**
 * The operator console's data routes (`/mcp-console/api/*`) on the demo over PostgreSQL holding
 * `count` tasks (seeded straight into its database): sequential GETs from one client, as the page
 * polls them, p50 and p95 per route. The list figure is the slowest of its filter variants.
 */
export async function measureConsole(ctx: Ctx, s: Started, databaseUrl: string, count: number): Promise<void> {
  const who = s.c.name;
  const keys = [
    'consoleOverviewP50',
    'consoleOverviewP95',
    'consoleListP50',
    'consoleListP95',
    'consoleTaskP95',
  ] as const;
  if (!s.ok) return keys.forEach((k) => ctx.results.notRun(k, who, s.reason));
  try {
    const seedMs = await seedConsoleTasks(databaseUrl, count, Date.now());
    const base = `http://127.0.0.1:${s.run.port}/mcp-console/api/`;
    const first = (await get(base, 'tasks')).body as { next: string; total: number };
    if (first.total !== count) throw new Error(`the console lists ${first.total} tasks, ${count} were seeded`);
    const routes: Route[] = [
      { name: 'overview', path: 'overview', list: false },
      { name: 'activity', path: 'activity', list: false },
      { name: 'newest first', path: 'tasks', list: true },
      { name: 'page 2', path: `tasks?cursor=${first.next}`, list: true },
      { name: 'status=working', path: 'tasks?status=working', list: true },
      { name: 'tool and status', path: `tasks?tool=${SEED_TOOLS[2]}&status=failed`, list: true },
      { name: 'one owner', path: 'tasks?subject=user-7', list: true },
      { name: 'created 10–20 min ago', path: 'tasks?minAge=600000&maxAge=1200000', list: true },
      { name: 'a task', path: 'tasks/seed-0000042', list: false },
    ];
    const rounds = ctx.plan.quick ? 15 : 40;
    const figures = new Map<string, { p50: number; p95: number }>();
    for (const route of routes) {
      for (let i = 0; i < WARMUP; i++) await get(base, route.path);
      const ms: number[] = [];
      for (let i = 0; i < rounds; i++) ms.push((await get(base, route.path)).ms);
      ms.sort((a, b) => a - b);
      figures.set(route.name, { p50: percentile(ms, 50), p95: percentile(ms, 95) });
    }
    const overview = figures.get('overview')!;
    const lists = routes.filter((r) => r.list).map((r) => ({ name: r.name, ...figures.get(r.name)! }));
    const slowest = lists.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    const quick = count === 100_000 ? '' : ' (quick run)';
    const note = `${count.toLocaleString('en')} tasks, ${rounds} requests per route${quick}`;
    ctx.results.set('consoleOverviewP50', who, overview.p50, note);
    ctx.results.set('consoleOverviewP95', who, overview.p95, note);
    const activity = figures.get('activity')!;
    ctx.results.set('consoleActivityP50', who, activity.p50, note);
    ctx.results.set('consoleActivityP95', who, activity.p95, note);
    ctx.results.set('consoleListP50', who, Math.max(...lists.map((l) => l.p50)), `slowest: ${slowest.name}`);
    ctx.results.set('consoleListP95', who, slowest.p95, `slowest: ${slowest.name}`);
    ctx.results.set('consoleTaskP95', who, figures.get('a task')!.p95);
    const table = [...figures].map(([n, f]) => `${n} ${f.p50.toFixed(1)}/${f.p95.toFixed(1)}`).join(', ');
    ctx.results.notes.push(`Console routes at ${count.toLocaleString('en')} tasks, p50/p95 ms: ${table}.`);
    ctx.log(`  ${who}: seeded ${count} tasks in ${(seedMs / 1000).toFixed(1)} s; p50/p95 ms: ${table}`);
  } catch (err) {
    keys.forEach((k) => ctx.results.get(k, who) ?? ctx.results.notRun(k, who, (err as Error).message));
  }
}

async function get(base: string, path: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const res = await fetch(base + path);
  const body: unknown = await res.json();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms, body };
}
