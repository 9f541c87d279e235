// The docs' samples are the adopting apps' code: every ```ts block of these docs (and the one of tools.md that uses
// @McpHeader) must appear, character for character, in one of the fixture files the apps are built from.
import fs from 'node:fs';
import path from 'node:path';
import { codeBlocks } from '../../scripts/check-docs.markdown.mjs';

const WHOLE = ['docs/resources.md', 'docs/prompts.md'];
const PICKED = [{ doc: 'docs/tools.md', has: '@McpHeader(' }];
const FIXTURE_DIR = 'common/src/adopt';

/** What differs, one line per doc block no fixture holds; empty when they all match. */
export function docsSampleDrift(root, fixtures) {
  const dir = path.join(fixtures, FIXTURE_DIR);
  const files = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
  const blocks = (doc) =>
    codeBlocks(fs.readFileSync(path.join(root, doc), 'utf8'))
      .filter((b) => b.lang === 'ts')
      .map((b) => ({ ...b, doc }));
  const wanted = [
    ...WHOLE.flatMap(blocks),
    ...PICKED.flatMap(({ doc, has }) => blocks(doc).filter((b) => b.code.includes(has))),
  ];
  if (wanted.length < WHOLE.length + PICKED.length) return [`found ${wanted.length} samples, expected more`];
  return wanted
    .filter((b) => !files.some((f) => f.includes(b.code)))
    .map((b) => `${b.doc}:${b.line}: in no file of fixtures/${FIXTURE_DIR}/`);
}
