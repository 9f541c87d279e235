import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/*
 * The package's public API is what its entry points export (package.json `exports`), and each of those symbols says
 * so in its JSDoc where it is declared (`@publicApi`, as Nest marks its own); nothing else carries the tag. Read from
 * the sources, no type checker: re-exports are followed file by file (`export { a as b }`, `export *`, a barrel).
 */
const SRC = dirname(fileURLToPath(import.meta.url));
const ROOT = join(SRC, '../../..');
const PACKAGE = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8')) as {
  exports: Record<string, string | { types?: string }>;
};

/** The entry points, relative to `src`: `./dist/store/typeorm/index.d.ts` → `store/typeorm/index.ts`. */
const ENTRIES = Object.values(PACKAGE.exports)
  .map((target) => (typeof target === 'string' ? undefined : target.types))
  .filter((types): types is string => types !== undefined)
  .map((types) => types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'));

const sources = new Map<string, ts.SourceFile>();
const parse = (file: string): ts.SourceFile => {
  let source = sources.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, true);
    sources.set(file, source);
  }
  return source;
};

/** The `src`-relative file a relative specifier of `from` names (`./a.js` → `dir/a.ts`). */
function target(from: string, specifier: ts.Expression): string {
  const text = (specifier as ts.StringLiteral).text;
  if (!text.startsWith('.')) throw new Error(`${from} re-exports the package ${text}: declare it here instead`);
  return posix.join(posix.dirname(from), text.replace(/\.js$/, '.ts'));
}

/** Names a top-level statement declares (a `const` may declare several). */
const declaredBy = (statement: ts.Statement): string[] =>
  ts.isVariableStatement(statement)
    ? statement.declarationList.declarations.map((d) => d.name.getText())
    : [(statement as { name?: ts.Identifier }).name?.text].filter((n): n is string => n !== undefined);

const isExported = (statement: ts.Statement): boolean =>
  ts.canHaveModifiers(statement) &&
  (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** `[name, file]` of each symbol `file` exports, `file` being the one that declares it (re-exports followed). */
function exportsOf(file: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const statement of parse(file).statements) {
    if (isExported(statement)) for (const name of declaredBy(statement)) found.push([name, file]);
    if (!ts.isExportDeclaration(statement)) continue;
    if (!statement.moduleSpecifier)
      throw new Error(`${file}: \`export { … }\` without \`from\`: export at the declaration instead`);
    const from = target(file, statement.moduleSpecifier);
    const clause = statement.exportClause;
    if (!clause) found.push(...exportsOf(from));
    else if (ts.isNamespaceExport(clause)) throw new Error(`${file}: \`export * as ${clause.name.text}\` not handled`);
    else
      for (const element of clause.elements) found.push(declaration(from, (element.propertyName ?? element.name).text));
  }
  return found;
}

/** Where `name`, as `file` exports it, is declared. */
function declaration(file: string, name: string): [string, string] {
  const hit = exportsOf(file).find(([exported]) => exported === name);
  if (!hit) throw new Error(`${file} exports no ${name}`);
  return hit;
}

/** The declarations the entry points reach, as `file: name`. */
const exported = (): string[] => [
  ...new Set(ENTRIES.flatMap((entry) => exportsOf(entry).map(([name, file]) => `${file}: ${name}`))),
];

/** Every top-level declaration tagged `@publicApi`, as `file: name`, across the sources (specs left out). */
function tagged(): string[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
  const found = new Set<string>();
  for (const file of files)
    for (const statement of parse(file).statements)
      if (ts.getJSDocTags(statement).some((tag) => tag.tagName.text === 'publicApi'))
        for (const name of declaredBy(statement)) found.add(`${file}: ${name}`);
  return [...found];
}

describe('public API', () => {
  it('reads every entry point of package.json', () => {
    expect(ENTRIES).toEqual(['index.ts', 'store/typeorm/index.ts', 'testing/index.ts', 'console/index.ts']);
  });

  it('every symbol the entry points export is tagged @publicApi where it is declared, and nothing else is', () => {
    expect(tagged().sort()).toEqual(exported().sort());
  });

  it('the API docs document every entry point', () => {
    const dir = join(ROOT, 'docs/typedoc/entries');
    const documented = readdirSync(dir).flatMap((f) =>
      [...readFileSync(join(dir, f), 'utf8').matchAll(/from '\.\.\/\.\.\/\.\.\/libs\/mcp-tasks\/src\/(.+)\.js'/g)].map(
        (m) => `${m[1]}.ts`,
      ),
    );
    expect(documented.sort()).toEqual([...ENTRIES].sort());
  });
});
