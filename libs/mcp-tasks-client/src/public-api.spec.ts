import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/*
 * The package's public API is what its entry points export, and each of those symbols says so in its JSDoc
 * (`@publicApi`, as Nest marks its own); nothing else carries the tag. Read from the sources, no type checker.
 */
const SRC = dirname(fileURLToPath(import.meta.url));
const ENTRIES = ['index.ts', 'testing/index.ts'];

const parse = (file: string): ts.SourceFile =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

/** `name → file` of each top-level declaration tagged `@publicApi`, across the sources (specs left out). */
function tagged(): Map<string, string> {
  const found = new Map<string, string>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'),
  );
  for (const file of files) {
    for (const statement of parse(join(SRC, file)).statements) {
      const names = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.map((d) => d.name.getText())
        : [(statement as { name?: ts.Identifier }).name?.text];
      if (ts.getJSDocTags(statement).some((tag) => tag.tagName.text === 'publicApi'))
        for (const name of names) if (name) found.set(name, relative(SRC, join(SRC, file)));
    }
  }
  return found;
}

/** `name → file` of what the entry points re-export (`export { a } from './a.js'`, `export type { B } …`). */
function exported(): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of ENTRIES) {
    for (const statement of parse(join(SRC, entry)).statements) {
      if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
      const from = join(dirname(entry), (statement.moduleSpecifier as ts.StringLiteral).text.replace(/\.js$/, '.ts'));
      for (const element of statement.exportClause.elements)
        found.set((element.propertyName ?? element.name).text, from);
    }
  }
  return found;
}

describe('public API', () => {
  it('every symbol the entry points export is tagged @publicApi where it is declared, and nothing else is', () => {
    const sorted = (m: Map<string, string>) => [...m].sort(([a], [b]) => a.localeCompare(b));
    expect(sorted(tagged())).toEqual(sorted(exported()));
  });
});
