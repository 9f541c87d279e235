// Checks the scenario lists against the suite's own (`conformance list --server`): a scenario the suite runs at a
// revision this project serves, or an extension scenario, must be in that revision's list (or TASKS) or excluded
// with a reason, and the lists may name only what the suite has at that revision.
import { EXCLUDED, PENDING, REVISIONS, TASKS } from './scenarios.js';

/** What the lists miss or name wrongly, one sentence each; empty when they match the suite. */
export function coverageGaps(listing: string): string[] {
  const suite = new Map<string, string[]>();
  for (const m of listing.matchAll(/^\s+- (\S+) \[([^\]]+)\]$/gm)) suite.set(m[1], m[2].split(','));
  if (suite.size === 0) return ['`conformance list --server` printed no scenario'];
  const gaps: string[] = [];
  for (const [name, revisions] of suite) {
    if (EXCLUDED[name]) continue;
    if (revisions.includes('extension') && !TASKS.includes(name)) gaps.push(`${name}: extension scenario not listed`);
    for (const r of revisions.filter((r) => REVISIONS[r] && !REVISIONS[r].includes(name)))
      gaps.push(`${name}: applies at ${r} but is not in its list`);
  }
  for (const [revision, names] of Object.entries(REVISIONS))
    for (const name of names.filter((n) => !suite.get(n)?.includes(revision)))
      gaps.push(`${name}: listed for ${revision}, which the suite does not run it at`);
  for (const name of Object.keys(PENDING).map((k) => k.split('@')[0]))
    if (!suite.has(name)) gaps.push(`${name}: pending, but the suite has no such scenario`);
  return gaps;
}
