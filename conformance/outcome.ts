// What one scenario's run came to, from the checks.json the CLI wrote (or its absence) and the CLI's output.
import fs from 'node:fs';
import path from 'node:path';

export interface Check {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

export interface Outcome {
  /** Empty when the scenario passed; else why not. */
  why: string;
  counts: string;
  /** Failed and warning checks, one line each. */
  notes: string[];
}

/** The checks in `dir/<server-…>/checks.json` (the CLI's layout), or none. */
export function readChecks(dir: string, name: string): Check[] | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const sub = fs
    .readdirSync(dir)
    .filter((d) => d.startsWith(`server-${name}-`) && fs.existsSync(path.join(dir, d, 'checks.json')))
    .sort()
    .pop();
  return sub ? (JSON.parse(fs.readFileSync(path.join(dir, sub, 'checks.json'), 'utf8')) as Check[]) : undefined;
}

/**
 * A pass needs a checks.json, no failed check and at least one passed one: a scenario skipped for its revision
 * (the CLI prints "SKIPPED: scenario" and exits 0) or whose checks all skip is a silent green, not a pass.
 */
export function outcomeOf(
  name: string,
  checks: Check[] | undefined,
  cli: { out: string; exit: string | null },
): Outcome {
  const all = checks ?? [];
  const n = (s: string) => all.filter((c) => c.status === s).length;
  const c = { ok: n('SUCCESS'), fail: n('FAILURE'), warn: n('WARNING'), skip: n('SKIPPED') };
  let why = '';
  if (cli.out.includes(`SKIPPED: scenario '${name}'`)) why = 'silent green: CLI skipped the scenario';
  else if (!checks) why = `no checks.json (exit ${cli.exit ?? 'none'})`;
  else if (c.fail > 0) why = `${c.fail} failed check(s)`;
  else if (c.ok === 0) why = 'silent green: no check passed';
  // A suite run's exit code is no single scenario's (null).
  else if (cli.exit !== null && cli.exit !== '0') why = `CLI exit ${cli.exit}`;
  const notes = all
    .filter((k) => k.status === 'FAILURE' || k.status === 'WARNING')
    .map(
      (k) =>
        `${k.status} ${k.id}: ${String(k.errorMessage ?? k.description)
          .split('\n')[0]
          .slice(0, 300)}`,
    );
  return { why, counts: `${c.ok}/${c.ok + c.fail} checks passed, ${c.warn} warnings, ${c.skip} skipped`, notes };
}
