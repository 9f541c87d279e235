import type { MetricKey } from './metrics.js';
import { GATEWAY, GATEWAY_DIRECT, GATEWAY_RELAY } from './names.js';
import { absolute, ratio } from './ratios.js';
import type { Results } from './results.js';
import type { Target } from './targets.js';

/** What a figure of `a` adds over the same figure of `b`: shown with both values. */
const added = (metric: MetricKey, a: string, b: string, unit: string) => (r: Results) => {
  const x = r.value(metric, a);
  const y = r.value(metric, b);
  if (x === undefined || y === undefined) return undefined;
  const f = (v: number) => (unit === 'ms' ? v.toFixed(2) : v.toFixed(0));
  const d = f(Math.abs(x - y));
  // A difference that rounds to zero reads "+0.00", not "−0.00".
  const sign = x >= y || Number(d) === 0 ? '+' : '−';
  return { x: x - y, shown: `${sign}${d} ${unit} (${f(y)} → ${f(x)} ${unit})` };
};

const CALL_P50 = [
  ['callP50One', 'sync tools/call p50 added, 1 client', 'ms', 0.3],
  ['callP50', 'sync tools/call p50 added, 16 in flight', 'ms', 2],
] as const;

/** Issue 41: the p50 a proxied sync call adds, with the ceilings. */
const GATEWAY_LATENCY: Target[] = CALL_P50.map(([metric, what, unit, most]) => ({
  metric,
  contestant: GATEWAY,
  text: `Gateway vs direct: ${what} ≤ +${most} ${unit}`,
  measure: added(metric, GATEWAY, GATEWAY_DIRECT, unit),
  met: (x: number) => x <= most,
}));

/** Issue 16 item 8, gateway half: reported figures, no pass/miss (the issue sets no threshold). */
const GATEWAY_FIGURES: Target[] = (
  [
    ['callCpuBoth', 'Node CPU added per sync tools/call (gateway + upstream processes, vs upstream alone)', 'µs'],
    ['getP50One', 'tasks/get p50 added, 1 client (the gateway reads its own mirrored task)', 'ms'],
    ['getP50', 'tasks/get p50 added, 16 in flight (the gateway reads its own mirrored task)', 'ms'],
    ['getCpuBoth', 'Node CPU added per tasks/get (gateway + upstream processes, vs upstream alone)', 'µs'],
  ] as const
).map(([metric, what, unit]) => ({
  metric,
  contestant: GATEWAY,
  text: `Gateway vs direct, reported: ${what}`,
  measure: added(metric, GATEWAY, GATEWAY_DIRECT, unit),
}));

/**
 * The gateway's limit measured in the same rounds (issue 41): what a bare relay costs and adds on this machine, so
 * the gateway's figures can be read against it. Reported, no target.
 */
const RELAY_FIGURES: Target[] = [
  {
    metric: 'callCpu',
    contestant: GATEWAY_RELAY,
    text: "Bare relay, reported: its CPU per proxied sync tools/call ÷ the upstream's own per direct call",
    measure: ratio('callCpu', GATEWAY_RELAY, GATEWAY_DIRECT),
  },
  ...CALL_P50.map(([metric, what, unit]) => ({
    metric,
    contestant: GATEWAY_RELAY,
    text: `Bare relay vs direct, reported: ${what}`,
    measure: added(metric, GATEWAY_RELAY, GATEWAY_DIRECT, unit),
  })),
];

export const GATEWAY_TARGETS: Target[] = [
  ...GATEWAY_LATENCY,
  ...GATEWAY_FIGURES,
  {
    metric: 'callCpu',
    contestant: GATEWAY,
    text: 'Gateway, reported: Node CPU of the gateway process per proxied sync tools/call',
    measure: absolute('callCpu', GATEWAY, 'µs'),
  },
  {
    metric: 'callCpu',
    contestant: GATEWAY,
    text: "Gateway: its CPU per proxied sync tools/call ≤ 3× the upstream's own per direct call",
    measure: ratio('callCpu', GATEWAY, GATEWAY_DIRECT),
    met: (x) => x <= 3,
  },
  ...RELAY_FIGURES,
  {
    metric: 'getCpu',
    contestant: GATEWAY,
    text: 'Gateway, reported: Node CPU of the gateway process per tasks/get of a mirrored task',
    measure: absolute('getCpu', GATEWAY, 'µs'),
  },
];
