#!/usr/bin/env node
// Part of `npm run lint` (after `npm test` has built the packages): the docs are checked like code.
// - Every ```ts block of README.md and docs/ is compiled by tsc against the built packages, each as a module of its
//   own, with scripts/check-docs.globals.d.ts in scope and the block's `<!-- snippet: prelude … -->` comment (hidden
//   declarations) in front. A block after `<!-- snippet: fragment -->` is skipped (and counted).
// - Every link of every markdown file in the repository: a relative path must exist, an `#anchor` must be a heading
//   of the file it points to (as GitHub anchors it); http(s) links are only parsed.
// Exits non-zero on a snippet that does not compile or a broken link. `--keep` leaves the compiled files in
// .tmp/check-docs/ (they are there anyway until the next run).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchors, codeBlocks, links } from './check-docs.markdown.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = join(ROOT, '.tmp', 'check-docs');
const SNIPPET_LANGS = new Set(['ts', 'typescript']);
const BUILT = ['libs/mcp-tasks/dist/index.d.ts', 'libs/mcp-tasks-client/dist/index.d.ts'];

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f && existsSync(join(ROOT, f)));
const withSnippets = tracked.filter((f) => f === 'README.md' || f.startsWith('docs/'));
const read = (file) => readFileSync(join(ROOT, file), 'utf8');

const snippetResult = checkSnippets();
const linkResult = checkLinks();

console.log(
  `docs: ${snippetResult.passed} snippets type-check, ${snippetResult.failed} do not ` +
    `(${snippetResult.skipped} marked fragment, skipped); ` +
    `${linkResult.checked} links in ${tracked.length} files, ${linkResult.broken} broken`,
);
if (snippetResult.failed > 0 || linkResult.broken > 0) process.exit(1);

/** Writes each snippet to .tmp/check-docs/ and compiles them all in one tsc run; errors point at the markdown. */
function checkSnippets() {
  const missing = BUILT.filter((f) => !existsSync(join(ROOT, f)));
  if (missing.length > 0) {
    console.error(`docs: the packages are not built (${missing.join(', ')}): run npm run build first`);
    process.exit(1);
  }
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  writeFileSync(join(WORK, 'globals.d.ts'), read('scripts/check-docs.globals.d.ts'));
  const snippets = [];
  let skipped = 0;
  for (const file of withSnippets) {
    for (const block of codeBlocks(read(file))) {
      if (!SNIPPET_LANGS.has(block.lang)) continue;
      if (block.mark === 'fragment') {
        skipped++;
        continue;
      }
      const name = `${file.replace(/[^\w]+/g, '_')}_L${block.line}.ts`;
      const header = `// ${file}:${block.line}\n${block.prelude}\n`;
      writeFileSync(join(WORK, name), `${header}${block.code}\nexport {};\n`);
      snippets.push({ name, file, line: block.line, offset: header.split('\n').length - 1, errors: [] });
    }
  }
  writeFileSync(
    join(WORK, 'tsconfig.json'),
    JSON.stringify({
      extends: relative(WORK, join(ROOT, 'tsconfig.base.json')),
      compilerOptions: { noEmit: true, rootDir: '.', types: ['node'] },
      include: ['*.ts'],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(WORK, 'tsconfig.json'), '--pretty', 'false'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const byName = new Map(snippets.map((s) => [s.name, s]));
  let stray = 0;
  for (const line of `${tsc.stdout}${tsc.stderr}`.split('\n').filter(Boolean)) {
    const m = /([^/\\(]+\.ts)\((\d+),(\d+)\): (error TS\d+: .*)$/.exec(line);
    const snippet = m && byName.get(m[1]);
    if (!snippet) {
      if (/error/.test(line)) stray++;
      console.error(line);
      continue;
    }
    const at = Number(m[2]) - snippet.offset;
    snippet.errors.push(`${snippet.file}:${snippet.line + at - 1}: ${m[4]}`);
  }
  const failedSnippets = snippets.filter((s) => s.errors.length > 0);
  for (const s of failedSnippets) for (const e of s.errors) console.error(e);
  if (tsc.status !== 0 && failedSnippets.length === 0 && stray === 0) stray = 1;
  return {
    passed: snippets.length - failedSnippets.length,
    failed: failedSnippets.length + stray,
    skipped,
  };
}

/** Relative targets must exist, anchors must be headings; http(s) targets must parse as URLs. */
function checkLinks() {
  const anchorCache = new Map();
  const anchorsOf = (file) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchors(read(file)));
    return anchorCache.get(file);
  };
  let checked = 0;
  let broken = 0;
  const fail = (file, line, target, why) => {
    broken++;
    console.error(`${file}:${line}: broken link ${target}: ${why}`);
  };
  for (const file of tracked) {
    for (const { target, line } of links(read(file))) {
      checked++;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        if (!/^(https?|mailto):/i.test(target)) fail(file, line, target, 'not an http(s) or mailto link');
        else if (/^https?:/i.test(target) && !validUrl(target)) fail(file, line, target, 'not a valid URL');
        continue;
      }
      const [rawPath, anchor] = splitAnchor(target);
      const path = rawPath ? relative(ROOT, resolve(ROOT, dirname(file), decodeURIComponent(rawPath))) : file;
      if (!existsSync(join(ROOT, path))) {
        fail(file, line, target, `${path} does not exist`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!path.endsWith('.md') || statSync(join(ROOT, path)).isDirectory()) continue;
      if (!anchorsOf(path).has(decodeURIComponent(anchor)))
        fail(file, line, target, `no heading #${anchor} in ${path}`);
    }
  }
  return { checked, broken };
}

function splitAnchor(target) {
  const i = target.indexOf('#');
  return i < 0 ? [target, undefined] : [target.slice(0, i), target.slice(i + 1)];
}

function validUrl(target) {
  try {
    return Boolean(new URL(target).host);
  } catch {
    return false;
  }
}
