import type { Metric } from './metrics.js';

/** A figure with as many digits as it is worth. */
export function formatValue(v: number, m: Metric): string {
  if (m.unit === 'req/s' || m.unit === 'bytes' || m.unit === 'µs')
    return `${Math.round(v).toLocaleString('en')} ${m.unit}`;
  return `${v < 1 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(0)} ${m.unit}`;
}

export const formatRatio = (x: number): string => `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×`;

/** Keeps a table cell on one line. */
export const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
