import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';

/** docs/client.md's "Examples" section shows, verbatim, the blocks marked `// README` in the client test files. */
describe('client: documented examples', () => {
  it('docs/client.md "Examples" are the blocks marked // README in test/client*.e2e-spec.ts', () => {
    const guide = readFileSync(new URL('../docs/client.md', import.meta.url), 'utf8');
    const start = guide.indexOf('\n## Examples\n');
    expect(start).toBeGreaterThan(0);
    const end = guide.indexOf('\n## ', start + 1);
    const section = guide.slice(start, end < 0 ? undefined : end);
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => lines(m[1]));
    const specs = readdirSync(new URL('.', import.meta.url)).filter((f) => /^client.*\.e2e-spec\.ts$/.test(f));
    const marked = specs.flatMap((file) => {
      const spec = readFileSync(new URL(file, import.meta.url), 'utf8');
      return [...spec.matchAll(/\/\/ README: [^\n]*\n([\s\S]*?)\/\/ \/README/g)].map((m) => lines(m[1]).join('\n'));
    });
    expect(marked.length).toBeGreaterThanOrEqual(11);
    // The guide shows exactly the marked blocks (in its own order), plus import lines.
    const shown = blocks.map((b) => b.filter((l) => !l.startsWith('import ')).join('\n')).filter(Boolean);
    expect([...shown].sort()).toEqual([...marked].sort());
  });
});

/** Non-empty lines without their indentation (the guide un-indents what a test nests). */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
