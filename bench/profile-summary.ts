// node dist/bench/profile-summary.js <file.cpuprofile | dir> [top=25]
// Where a contestant's CPU went (profiles from `npm run bench -- --profile`): self time by function,
// by package / library file, and inclusive time of this repository's library functions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [target, topArg] = process.argv.slice(2);
if (!target) throw new Error('usage: profile-summary <file.cpuprofile | dir> [top]');
const top = Number(topArg ?? 25);
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(target, f))
  : [target];

for (const file of files) summarize(file, JSON.parse(readFileSync(file, 'utf8')) as Profile);

function where(url: string): string {
  if (!url) return '(native / idle / gc)';
  const lib = url.match(/\/libs\/([^/]+\/src\/.+)$/);
  if (lib) return `libs/${lib[1]}`;
  const mod = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (mod) return mod[1];
  if (url.startsWith('node:')) return url;
  const app = url.match(/\/dist\/(.+)$/);
  return app ? app[1] : url;
}

function summarize(file: string, p: Profile): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const fnSelf = new Map<string, number>();
  const placeSelf = new Map<string, number>();
  const libInclusive = new Map<string, number>();
  const placeInclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const f = n.callFrame;
    const name = f.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') {
      fnSelf.set(name, (fnSelf.get(name) ?? 0) + us);
      placeSelf.set(name, (placeSelf.get(name) ?? 0) + us);
      continue;
    }
    const key = `${name} ${where(f.url)}:${f.lineNumber + 1}`;
    fnSelf.set(key, (fnSelf.get(key) ?? 0) + us);
    placeSelf.set(where(f.url), (placeSelf.get(where(f.url)) ?? 0) + us);
    // Inclusive: credit every distinct library frame (and package) on the stack once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      const place = `${where(cf.url)} (inclusive)`;
      if (cf.url && !seen.has(place)) {
        seen.add(place);
        placeInclusive.set(place, (placeInclusive.get(place) ?? 0) + us);
      }
      if (!/\/libs\//.test(cf.url)) continue;
      const k = `${cf.functionName || '(anonymous)'} ${where(cf.url)}:${cf.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      libInclusive.set(k, (libInclusive.get(k) ?? 0) + us);
    }
  }
  const idle = fnSelf.get('(idle)') ?? 0;
  const busy = total - idle;
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  const print = (title: string, m: Map<string, number>) => {
    console.log(`\n  ${title}`);
    for (const [k, us] of [...m]
      .filter(([k]) => k !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top))
      console.log(`  ${pct(us)}  ${k}`);
  };
  console.log(
    `\n== ${file}: ${(busy / 1e6).toFixed(2)} s busy of ${(total / 1e6).toFixed(2)} s (percentages of busy time)`,
  );
  print('self time by package / library file', placeSelf);
  print('self time by function', fnSelf);
  print('inclusive time of library functions', libInclusive);
  print('inclusive time by package / library file', placeInclusive);
}
