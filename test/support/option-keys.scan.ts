import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** One property of an options interface, as its source declares it. */
export interface OptionKey {
  /** `Interface.property`, or `Interface.property.nested` for an inline object type. */
  key: string;
  /** Its JSDoc, as written. */
  doc: string;
  /** The file that declares it, from the repository root. */
  file: string;
}

type Declaration = { node: ts.InterfaceDeclaration | ts.TypeAliasDeclaration; sf: ts.SourceFile };

/**
 * Every property of every options type a package lets apps pass in: the exported names of `entries` (the public
 * entry points) that end in `Options` or `Config`, save `outputs`, and every type of this repository their
 * properties, bases and type arguments name, recursively. Read from the sources (no type checker, so it is quick):
 * a new option anywhere in what an app can pass is found without anyone listing it.
 */
export function optionKeys(root: string, sourceDirs: string[], entries: string[], outputs: string[]): OptionKey[] {
  const declarations = new Map<string, Declaration[]>();
  for (const dir of sourceDirs) {
    for (const sf of sourceFiles(join(root, dir))) {
      for (const node of sf.statements) {
        if (!ts.isInterfaceDeclaration(node) && !ts.isTypeAliasDeclaration(node)) continue;
        declarations.set(node.name.text, [...(declarations.get(node.name.text) ?? []), { node, sf }]);
      }
    }
  }
  const roots = entries.flatMap((entry) => exportedNames(parse(join(root, entry))));
  const keys = new Map<string, OptionKey>();
  const seen = new Set<string>();
  const visitType = (type: ts.TypeNode | undefined, owner: string, sf: ts.SourceFile): void => {
    if (!type) return;
    if (ts.isTypeReferenceNode(type) || ts.isExpressionWithTypeArguments(type)) {
      const name = (ts.isTypeReferenceNode(type) ? type.typeName : type.expression).getText(sf).split('.').pop()!;
      visitName(name);
      type.typeArguments?.forEach((t) => visitType(t, owner, sf));
    } else if (ts.isArrayTypeNode(type)) visitType(type.elementType, owner, sf);
    else if (ts.isUnionTypeNode(type) || ts.isIntersectionTypeNode(type))
      type.types.forEach((t) => visitType(t, owner, sf));
    else if (ts.isParenthesizedTypeNode(type)) visitType(type.type, owner, sf);
    else if (ts.isTypeLiteralNode(type)) visitMembers(type.members, owner, sf);
    // Function types, literals and keywords hold no options.
  };
  const visitMembers = (members: ts.NodeArray<ts.TypeElement>, owner: string, sf: ts.SourceFile): void => {
    for (const member of members) {
      if (!ts.isPropertySignature(member) || !member.name) continue;
      const key = `${owner}.${member.name.getText(sf)}`;
      const doc = sf.text.slice(member.getFullStart(), member.getStart(sf));
      keys.set(key, { key, doc, file: relative(root, sf.fileName) });
      visitType(member.type, key, sf);
    }
  };
  const visitName = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const { node, sf } of declarations.get(name) ?? []) {
      if (ts.isTypeAliasDeclaration(node)) visitType(node.type, name, sf);
      else {
        node.heritageClauses?.forEach((h) => h.types.forEach((t) => visitType(t, name, sf)));
        visitMembers(node.members, name, sf);
      }
    }
  };
  for (const name of roots) if (/(Options|Config)$/.test(name) && !outputs.includes(name)) visitName(name);
  return [...keys.values()];
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The `.ts` sources under `dir`, specs left out. */
function sourceFiles(dir: string): ts.SourceFile[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts'))
    .map((e) => parse(join(e.parentPath, e.name)));
}

/** The names an entry point re-exports (`export { A, type B } from …`, `export type { C } from …`). */
function exportedNames(sf: ts.SourceFile): string[] {
  return sf.statements.flatMap((s) =>
    ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)
      ? s.exportClause.elements.map((e) => (e.propertyName ?? e.name).text)
      : [],
  );
}
