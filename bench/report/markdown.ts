import { cell, formatRatio, formatValue } from './format.js';
import { METRICS } from './metrics.js';
import { LIMIT, MCP_NEST, SDK } from './names.js';
import type { Results, RunInfo } from './results.js';
import { judge, type Verdict } from './targets.js';

const REFS = [LIMIT, SDK, MCP_NEST];

const verdict = (v: Verdict) =>
  v.pass === null ? (v.target.met ? '—' : 'no target') : v.pass ? '**pass**' : '**MISS**';

/** The results page: targets first, then every figure with its ratios to the limit and the peers. */
export function markdown(r: Results, info: RunInfo, files: { svg: string; json: string }, method: string): string {
  const verdicts = judge(r);
  const lines = [
    `# Benchmarks — ${info.date}${info.quick ? ' (quick run)' : ''}`,
    '',
    `One run on one machine (${info.cpus}, Node ${info.node}, commit \`${info.commit}\`,`,
    `${Math.round(info.seconds)} s; 1-minute load average during the run: mean ${info.load.mean.toFixed(1)},`,
    `max ${info.load.max.toFixed(1)} — the bench alone keeps it near 2, so more means other work shared the machine`,
    `and the figures moved with it${stolen(info.steal)}).`,
    'Each contestant runs in its own process and the load generator in another, over loopback with',
    'keep-alive connections. **Ratios are the result; absolute times are this machine on this day.**',
    `Raw numbers: [${files.json}](${files.json}).`,
    '',
    `![throughput and latency per contestant](${files.svg})`,
    '',
    '## Targets',
    '',
    '| Target | Measured | Result |',
    '|---|---|---|',
    ...verdicts.map((v) => `| ${cell(v.target.text)} | ${cell(v.shown)} | ${verdict(v)} |`),
    '',
    '## Figures',
    '',
    '× columns: this figure divided by the same figure of the limit / a peer',
    '(for latencies and CPU, below 1 is better).',
    '',
    '| Figure | Contestant | Value | × limit | × SDK peer | × MCP-Nest peer | Target | Result |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [key, row] of r.cells) {
    const m = METRICS[key];
    for (const [who, c] of row) {
      const value = c.value !== undefined ? formatValue(c.value, m) : `not run: ${c.notRun ?? '?'}`;
      const ratios = REFS.map((ref) => {
        const mine = r.value(key, who);
        const theirs = r.value(key, ref);
        return ref === who || mine === undefined || theirs === undefined || theirs === 0
          ? ''
          : formatRatio(mine / theirs);
      });
      const mine = verdicts.filter((v) => v.target.metric === key && v.target.contestant === who);
      const target = mine.map((v) => v.target.text).join('; ');
      const result = mine.map((v) => `${verdict(v)} (${v.shown})`).join('; ');
      const shown = cell(value + (c.note ? ` — ${c.note}` : ''));
      const row = [cell(m.title), cell(who), shown, ...ratios, cell(target), cell(result)];
      lines.push(`| ${row.join(' | ')} |`);
    }
  }
  lines.push('', '## Contestants', '', ...contestants(info), '', '## Method', '', method.trim(), '');
  if (r.notes.length) lines.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

function contestants(info: RunInfo): string[] {
  const v = info.versions;
  return [
    `- **${LIMIT}**: a bare \`node:http\` server answering the same JSON-RPC shapes from a \`Map\`` +
      ' (no validation, no framework): the ceiling for this machine.',
    `- **${SDK}**: \`@modelcontextprotocol/server\` ${v.server} \`createMcpHandler\` +` +
      ` \`@modelcontextprotocol/node\` ${v.node} \`toNodeHandler\`, a server per request, \`tasks/get\` registered` +
      ' with the 3-argument `setRequestHandler` form, zod schemas.',
    `- **${MCP_NEST}**: \`@rekog/mcp-nest\` ${v.mcpNest} on NestJS ${v.nest} (Express), stateless streamable HTTP;` +
      ' no tasks extension, so synchronous tools/call only.',
    `- **module/…**: this repository's demo with the bench fixtures (\`bench/fixture-app/\`)` +
      ` on the memory store, on SQLite (\`MCP_STORE=sqlite\`), on PostgreSQL ${v.postgres}` +
      ' (`MCP_STORE=postgres`, `MCP_BUS=postgres`; two instances for the cancel figure), and on Redis' +
      ` ${v.redis ?? '?'} (\`MCP_STORE=redis\`, \`MCP_BUS=redis\`; AOF on, \`appendfsync everysec\`).` +
      ' Tools: `greet` (sync), `slow_compute` (task), `bench_*` fixtures.',
  ];
}

const stolen = (steal: number | undefined) =>
  steal === undefined
    ? ''
    : `; CPU time taken by the host for other guests: ${steal.toFixed(1)} % (about 1 % when the host is quiet)`;
