import { METRICS, type MetricKey } from './metrics.js';
import {
  CANCEL_CROSS,
  CANCEL_LOCAL,
  LIMIT,
  MCP_NEST,
  MEMORY,
  MEMORY_NEST_ROUTE,
  POSTGRES,
  SDK,
  SQLITE,
} from './names.js';
import type { Results } from './results.js';

const SERIES = [LIMIT, SDK, MCP_NEST, MEMORY, MEMORY_NEST_ROUTE, SQLITE, POSTGRES, CANCEL_LOCAL, CANCEL_CROSS];
const COLORS: Record<string, string> = {
  [LIMIT]: '#9e9e9e',
  [SDK]: '#e08a2c',
  [MCP_NEST]: '#c9457a',
  [MEMORY]: '#2b6cb0',
  [MEMORY_NEST_ROUTE]: '#90b4dc',
  [SQLITE]: '#2f855a',
  [POSTGRES]: '#6b46c1',
  [CANCEL_LOCAL]: '#2b6cb0',
  [CANCEL_CROSS]: '#6b46c1',
};

interface Group {
  title: string;
  main: MetricKey;
  /** Drawn lighter behind `main` (p99 behind p50). */
  back?: MetricKey;
}

const THROUGHPUT: Group[] = [
  { title: 'tasks/get, 16 in flight', main: 'getRps' },
  { title: 'sync tools/call, 16 in flight', main: 'callRps' },
  { title: 'tools/call → CreateTaskResult, 50 clients', main: 'create50Rps' },
];
const LATENCY: Group[] = [
  { title: 'tasks/get, 16 in flight', main: 'getP50', back: 'getP99' },
  { title: 'sync tools/call, 16 in flight', main: 'callP50', back: 'callP99' },
  { title: 'tools/call → CreateTaskResult, 1 client', main: 'create1P50', back: 'create1P99' },
  { title: 'tasks/cancel → ctx.signal fires', main: 'cancelP50', back: 'cancelP99' },
];

const W = 900;
const LABEL = 250;
const BAR = 520;
const ROW = 18;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const num = (v: number, unit: string) =>
  unit === 'req/s' ? Math.round(v).toLocaleString('en') : v < 1 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(0);

/** Hand-written bar chart: throughput, then latency (p50 solid, p99 light), per contestant. */
export function chart(r: Results, title: string): string {
  const parts: string[] = [];
  let y = 34;
  parts.push(`<text x="12" y="22" font-size="16" font-weight="bold">${esc(title)}</text>`);
  for (const [heading, groups] of [
    ['Throughput, requests/s — higher is better', THROUGHPUT],
    ['Latency, ms — lower is better (solid p50, light p99)', LATENCY],
  ] as const) {
    y += 14;
    parts.push(`<text x="12" y="${y}" font-size="14" font-weight="bold">${esc(heading)}</text>`);
    y += 6;
    for (const g of groups) {
      const rows = SERIES.map((who) => ({
        who,
        main: r.value(g.main, who),
        back: g.back ? r.value(g.back, who) : undefined,
      })).filter((x) => x.main !== undefined);
      if (rows.length === 0) continue;
      const max = Math.max(...rows.map((x) => Math.max(x.main ?? 0, x.back ?? 0))) || 1;
      y += 18;
      parts.push(
        `<text x="12" y="${y}" font-size="12" font-style="italic">${esc(g.title)} (scaled to its own maximum)</text>`,
      );
      y += 4;
      for (const row of rows) {
        const color = COLORS[row.who] ?? '#444';
        const unit = METRICS[g.main].unit;
        parts.push(`<text x="${LABEL - 6}" y="${y + 13}" font-size="11" text-anchor="end">${esc(row.who)}</text>`);
        if (row.back !== undefined)
          parts.push(
            `<rect x="${LABEL}" y="${y + 2}" width="${((row.back / max) * BAR).toFixed(1)}" height="${ROW - 4}"` +
              ` fill="${color}" opacity="0.35"/>`,
          );
        const w = ((row.main ?? 0) / max) * BAR;
        parts.push(`<rect x="${LABEL}" y="${y + 2}" width="${w.toFixed(1)}" height="${ROW - 4}" fill="${color}"/>`);
        const end = Math.max(w, row.back !== undefined ? (row.back / max) * BAR : 0);
        const text =
          row.back !== undefined
            ? `${num(row.main ?? 0, unit)} / ${num(row.back, unit)} ${unit}`
            : `${num(row.main ?? 0, unit)} ${unit}`;
        parts.push(`<text x="${(LABEL + end + 4).toFixed(1)}" y="${y + 13}" font-size="11">${esc(text)}</text>`);
        y += ROW;
      }
    }
    y += 8;
  }
  const h = y + 12;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${h}" viewBox="0 0 ${W} ${h}"` +
      ' font-family="Helvetica, Arial, sans-serif">',
    `<rect width="${W}" height="${h}" fill="#ffffff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
