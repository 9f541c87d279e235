// Reading markdown for scripts/check-docs.mjs: code blocks (with the HTML comment that may precede them), headings
// as GitHub anchors them, and links. Enough of CommonMark for this repository's docs, not a full parser.

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([\w-]*)/;
const SNIPPET_COMMENT = /<!--\s*snippet:\s*(fragment|prelude)\b([\s\S]*?)-->\s*$/;

/** The fenced code blocks: language, first code line (1-based), code, and the snippet comment just before it. */
export function codeBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++;
    const code = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
      .join('\n');
    const before = lines.slice(0, i).join('\n').trimEnd();
    const comment = SNIPPET_COMMENT.exec(before);
    blocks.push({
      lang: lang.toLowerCase(),
      line: i + 2,
      code,
      mark: comment?.[1],
      prelude: comment?.[1] === 'prelude' ? comment[2].trim() : '',
    });
    i = end;
  }
  return blocks;
}

/** The text outside code blocks and HTML comments, and without inline code unless kept (line numbers kept). */
export function prose(text, keepInlineCode = false) {
  const lines = text.split('\n');
  let fence = null;
  const kept = lines.map((line) => {
    const open = FENCE.exec(line);
    if (fence) {
      if (line.trimStart().startsWith(fence)) fence = null;
      return '';
    }
    if (open) {
      fence = open[2];
      return '';
    }
    return line;
  });
  const visible = kept.join('\n').replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, ' '));
  return keepInlineCode ? visible : visible.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, (c) => c.replace(/[^\n]/g, ' '));
}

/** Anchors GitHub gives a file's headings (github-slugger's rule), plus explicit `id`/`name` attributes. */
export function anchors(text) {
  const seen = new Map();
  const out = new Set();
  for (const line of prose(text, true).split('\n')) {
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = h[1]
        .replace(/`/g, '')
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/[*_]{1,3}([^*_]+)[*_]{1,3}/g, '$1')
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
        .replace(/ /g, '-');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  }
  return out;
}

/** Every link and image target in the prose, with its line: inline `[x](target)` and definitions `[x]: target`. */
export function links(text) {
  const found = [];
  prose(text)
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g)) {
        found.push({ target: m[1].replace(/^<|>$/g, ''), line: i + 1 });
      }
      const def = /^ {0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
      if (def) found.push({ target: def[1].replace(/^<|>$/g, ''), line: i + 1 });
    });
  return found;
}
