#!/usr/bin/env node
// Part of `npm run lint`: Prettier wraps code at 120 columns but leaves long strings and comments
// alone, so this lists every source line over 120 characters and exits non-zero when there is one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
// Not ours to format: test/adopt holds generated apps' sources, results/ is generated output.
const SKIP = [/^test\/adopt\//, /(^|\/)results\//];

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => SOURCE.test(f) && !SKIP.some((s) => s.test(f)));
const long = files.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => (line.length > MAX ? [`${file}:${i + 1}: ${line.length} characters`] : [])),
);
for (const l of long) console.log(l);
if (long.length > 0) {
  console.log(`${long.length} line(s) over ${MAX} characters`);
  process.exit(1);
}
