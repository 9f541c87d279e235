import type { CliIo } from './cli-io.js';

/**
 * Rows as `tools` prints them: the columns padded to their widest cell under a header, the last one (a description)
 * on one line, clipped to the terminal's width when there is one.
 */
export function printTable(header: string[], rows: string[][], io: CliIo): void {
  const widths = header.slice(0, -1).map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const used = widths.reduce((sum, w) => sum + w + 2, 0);
  const room = io.tty ? Math.max(20, io.columns - used) : Infinity;
  for (const row of [header, ...rows]) {
    const cells = widths.map((w, c) => row[c].padEnd(w));
    io.out(`${cells.join('  ')}  ${clip(oneLine(row.at(-1) ?? ''), room)}`.trimEnd());
  }
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const clip = (text: string, room: number): string => (text.length <= room ? text : `${text.slice(0, room - 1)}…`);
